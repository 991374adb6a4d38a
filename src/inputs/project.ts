// The `project` input of create-project and update-project: project fields, each checked against
// the fields bk-ci knows.
import { z } from '../base/schema.ts';
import { projectFields } from '../bkci/projects.ts';
import { mapping, suggest } from './fields.ts';

/** The project fields bk-ci knows; read when a `project` input is, not at every start. */
const knownFields = (): string[] => Object.keys(projectFields.unwrap().shape);

/**
 * A field bk-ci does not know is dropped by its JSON reader without a word, so a typo would be
 * a change that silently never happens: each is named, with the field that was probably meant.
 */
function unknownField(name: string): string {
  const known = knownFields();
  const hint = suggest(name, known);
  return `project.${name} is not a field of a bk-ci project, and bk-ci would ignore it: ${hint === undefined ? `the fields are ${known.join(', ')}` : `did you mean ${hint}?`}`;
}

/** `project`: project fields as a JSON object or a YAML mapping; each problem names its field. */
export const projectInput = z.lazy(() =>
  mapping('project').transform((value, ctx) => {
    const known = knownFields();
    const unknown = Object.keys(value).filter((k) => !known.includes(k));
    for (const name of unknown) ctx.addIssue({ code: 'custom', message: unknownField(name) });
    if (unknown.length > 0) return z.NEVER;
    const fields = projectFields.safeParse(value);
    if (fields.success) return fields.data;
    for (const issue of fields.error.issues) ctx.addIssue({ code: 'custom', message: `project.${issue.path.join('.')}: ${issue.message}` });
    return z.NEVER;
  }),
);
