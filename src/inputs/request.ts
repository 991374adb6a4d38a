// The inputs of request: the method, the path after the API type, the query and the body, and
// what they may not say together.
import { z } from '../base/schema.ts';
import { isControl } from '../base/text.ts';
import { textMapping } from './fields.ts';
import { parseJsonOrYaml } from './json-yaml.ts';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/**
 * `path`: the path after the API type, version first (`v4/projects/demo/build_histories`), as
 * segments. Nothing in it can leave the OpenAPI or change the route: no `..`, `?`, `#`, scheme,
 * empty segment or control character. Each segment is sent as exactly one segment.
 */
const path = () =>
  z.string().transform((text, ctx) => {
    const problem = (why: string): never => {
      ctx.addIssue({ code: 'custom', message: `path "${text}" ${why}` });
      return z.NEVER;
    };
    if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//')) return problem('must be a path after the API type, not a URL');
    if (/[?#]/.test(text)) return problem('cannot hold "?" or "#": give query parameters in query');
    if ([...text].some((c) => isControl(c.charCodeAt(0)))) return problem('cannot hold control characters');
    // One leading slash is forgiven; every other segment must be there.
    const segments = text.replace(/^\//, '').split('/');
    if (segments.some((s) => s === '')) return problem('cannot have an empty segment ("//" or a trailing "/")');
    if (segments.some((s) => s === '.' || s === '..')) return problem('cannot hold "." or ".." segments');
    if (!/^v\d+$/.test(segments[0] ?? '')) return problem('must start with the API version, e.g. v4/projects/demo/build_histories');
    return segments;
  });

/** `query`: a mapping of names to text as written, or to a list of texts that repeats the parameter. */
const query = () => textMapping('query', { lists: true, what: 'a text, a number, a boolean or a list of those' });

/** `body`: any JSON value, written as JSON or YAML; whole numbers beyond 2^53 are kept to the digit. */
const body = () =>
  z.string().transform(async (text, ctx) => {
    try {
      return { value: await parseJsonOrYaml(text) };
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: `body is neither JSON nor YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      });
      return z.NEVER;
    }
  });

/** request's inputs; built when request loads (`.unwrap()`), not at every start. */
export const requestInputs = z.lazy(() =>
  z
    .object({
      method: z.enum(METHODS, { error: (i) => `method must be ${METHODS.join(', ')}, not "${String(i.input)}"` }).default('GET'),
      path: path(),
      query: query().optional(),
      body: body().optional(),
    })
    .superRefine((task, ctx) => {
      // A GET carries no body: sent, it would be dropped, and what was meant as a change read instead.
      if (task.method === 'GET' && task.body !== undefined)
        ctx.addIssue({
          code: 'custom',
          message: 'body is given but method is GET (the default), which sends no body: set method to POST, PUT or DELETE',
        });
      // The token goes in the query already; a second one would leave bk-ci to pick either.
      for (const name of Object.keys(task.query ?? {}))
        if (name.toLowerCase() === 'access_token')
          ctx.addIssue({
            code: 'custom',
            message: `query.${name} cannot be given: the action sends the token itself (access-token or bk-token)`,
          });
    }),
);
