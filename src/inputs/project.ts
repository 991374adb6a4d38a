// The inputs of get-project, create-project and update-project; above all `project`: project
// fields, each checked against the fields bk-ci knows.
import { z } from '../base/schema.ts';
import { projectFields } from '../bkci/projects.ts';
import { mapping, segment } from './fields.ts';
import { suggest } from './suggest.ts';

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
const projectInput = z.lazy(() =>
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

// Each operation's inputs, built when that operation loads (`.unwrap()`), not at every start.

/** get-project's inputs. */
export const getProjectInputs = z.lazy(() => z.object({ 'project-id': segment('project-id') }));

/** create-project's inputs: a project-id, if given, names the same project as project.englishName. */
export const createProjectInputs = z.lazy(() =>
  z
    .object({
      project: projectInput,
      'project-id': segment('project-id').optional(),
      'if-exists': z
        .enum(['fail', 'skip', 'update'], { error: (i) => `if-exists must be fail, skip or update, not "${String(i.input)}"` })
        .default('fail'),
    })
    .superRefine((task, ctx) => {
      const { englishName, projectName } = task.project;
      const problem = (message: string): void => ctx.addIssue({ code: 'custom', message });
      if (englishName === undefined || projectName === undefined)
        problem('project must give englishName and projectName to create a project');
      const id = task['project-id'];
      if (id !== undefined && englishName !== undefined && id !== englishName)
        problem(`project-id "${id}" and project.englishName "${englishName}" differ; give one, or the same in both`);
      if (englishName !== undefined && !/^[a-z][a-zA-Z0-9-]{1,31}$/.test(englishName))
        problem(`project.englishName "${englishName}" must be 2-32 characters: a lower-case letter first, then letters, digits or "-"`);
    }),
);

/** update-project's inputs: the English name of a project cannot be changed. */
export const updateProjectInputs = z.lazy(() =>
  z.object({ 'project-id': segment('project-id'), project: projectInput }).superRefine((task, ctx) => {
    const name = task.project.englishName;
    if (name !== undefined && name !== task['project-id'])
      ctx.addIssue({
        code: 'custom',
        message: `project.englishName "${name}" differs from project-id "${task['project-id']}"; the English name of a project cannot be changed`,
      });
  }),
);
