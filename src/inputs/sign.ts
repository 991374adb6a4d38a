// The inputs of sign-detail: the re-signing task, whether to wait for it, and whether to read its
// download URL.
import { z } from '../base/schema.ts';
import { bool, segment } from './fields.ts';

/** sign-detail's inputs; built when sign-detail loads (`.unwrap()`), not at every start. */
export const signInputs = z.lazy(() =>
  z.object({
    'resign-id': segment('resign-id'),
    wait: bool('wait').default(true),
    'download-url': bool('download-url').default(false),
  }),
);
