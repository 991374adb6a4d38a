// The inputs of create-callbacks: the project, the URL and region, the events to register it for,
// its secret, and whether this URL's callbacks for other events are removed.
import { z } from '../base/schema.ts';
import { CALLBACK_EVENTS, REGIONS } from '../bkci/events.ts';
import { bool, oneOf, publicHttpUrl, segment, splitList } from './fields.ts';
import { suggest } from './suggest.ts';

/** `events`: bk-ci callback events, commas and/or new lines; a misspelt one names the one meant. */
const events = () =>
  z.string().transform((text, ctx) => {
    const names = splitList(text);
    if (names.length === 0) ctx.addIssue({ code: 'custom', message: 'events names no event' });
    for (const name of names) {
      if ((CALLBACK_EVENTS as readonly string[]).includes(name)) continue;
      const hint = suggest(name, CALLBACK_EVENTS);
      ctx.addIssue({
        code: 'custom',
        message: `event "${name}" is not a bk-ci callback event${hint ? ` (did you mean ${hint}?)` : ''}; known events: ${CALLBACK_EVENTS.join(', ')}`,
      });
    }
    return names;
  });

/** create-callbacks' inputs; built when create-callbacks loads (`.unwrap()`), not at every start. */
export const callbackInputs = z.lazy(() =>
  z.object({
    'project-id': segment('project-id'),
    'callback-url': publicHttpUrl('callback-url'),
    region: oneOf('region', REGIONS),
    events: events(),
    'secret-token': z.string().optional(),
    'replace-events': bool('replace-events').default(false),
  }),
);
