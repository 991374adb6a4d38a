// A build's variables (v4 build_variables): the values of the names asked for. Facts:
// docs/bkci/artifacts-and-variables.md.
import { z } from '../base/schema.ts';
import { onBoth } from './routes.ts';

/** A read: the names go in the body, nothing changes (docs/bkci/artifacts-and-variables.md). */
export const BUILD_VARIABLES = onBoth('POST', 'v4/projects/{projectId}/build_variables', 'read');

/** build_variables: name → value, "" for a name the build does not have. */
export const buildVariables = z.record(z.string(), z.string().nullable());
