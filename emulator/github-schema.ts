// The request bodies GitHub's REST API takes for check runs, from GitHub's own published OpenAPI
// description (the npm package @octokit/openapi): the emulator checks every body against them,
// so a body GitHub would refuse is refused here too. Only the operations the emulator serves are
// compiled: the whole description is 3.6 MB and thousands of schemas.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

const DESCRIPTION = '@octokit/openapi/generated/api.github.com.deref.json';

/** The operations whose bodies are checked, by GitHub's operationId. */
const CHECKED = {
  'checks/create': ['/repos/{owner}/{repo}/check-runs', 'post'],
  'checks/update': ['/repos/{owner}/{repo}/check-runs/{check_run_id}', 'patch'],
} as const;
export type CheckedOperation = keyof typeof CHECKED;

interface Operation {
  requestBody?: { content?: Record<string, { schema?: object }> };
}

let compiled: Record<CheckedOperation, ValidateFunction> | undefined;

/** RFC 3339 date-time, as GitHub's `format: date-time` means it. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function load(): Record<CheckedOperation, ValidateFunction> {
  const schemas = bodySchemas();
  // GitHub's description uses OpenAPI keywords JSON Schema does not know (e.g. `example`).
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('date-time', DATE_TIME);
  ajv.addFormat('uri', /^[a-z][a-z\d+.-]*:\S*$/i);
  const out = {} as Record<CheckedOperation, ValidateFunction>;
  for (const id of Object.keys(CHECKED) as CheckedOperation[]) out[id] = ajv.compile(schemas[id]);
  return out;
}

/**
 * The checked operations' request body schemas, taken from GitHub's description. Reading and
 * parsing its 73 MB costs about 2 s of CPU, in every process that starts the emulator's GitHub side
 * (each test worker, `npm start -- check=true`): what it yields, a few KB, is kept in
 * node_modules/.cache under a name that changes with the description's file.
 */
function bodySchemas(): Record<CheckedOperation, object> {
  const file = createRequire(import.meta.url).resolve(DESCRIPTION);
  const { size, mtimeMs } = statSync(file);
  // Beside the packages, where tools keep their caches: gone with node_modules, never in the step's temp folder.
  const dir = join(import.meta.dirname, '..', 'node_modules', '.cache', 'bkci-emulator');
  const cache = join(dir, `github-bodies-${size}-${Math.round(mtimeMs)}.json`);
  try {
    return JSON.parse(readFileSync(cache, 'utf8')) as Record<CheckedOperation, object>;
  } catch {
    // Not there yet (or unreadable): taken from the description, and kept for the next process.
  }
  const api = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, Operation>> };
  const out = {} as Record<CheckedOperation, object>;
  for (const [id, [path, method]] of Object.entries(CHECKED) as [CheckedOperation, readonly [string, string]][]) {
    const schema = api.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
    if (schema === undefined) throw new Error(`GitHub's OpenAPI description has no request body for ${id} (${method} ${path})`);
    out[id] = schema;
  }
  // Written whole under another name, then renamed: a process reading at the same time sees all or nothing.
  mkdirSync(dir, { recursive: true });
  const partial = `${cache}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, JSON.stringify(out));
  renameSync(partial, cache);
  return out;
}

/** Compiles the checked operations' schemas once (a few hundred ms): the first request need not wait. */
export function loadSchemas(): void {
  compiled ??= load();
}

/** What is wrong with `body` for the operation, as GitHub's 422 lists it; empty when GitHub takes it. */
export function bodyProblems(operation: CheckedOperation, body: unknown): string[] {
  compiled ??= load();
  const validate = compiled[operation];
  if (validate(body)) return [];
  return (validate.errors ?? []).map(describe);
}

const describe = (e: ErrorObject): string => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`.trim();
