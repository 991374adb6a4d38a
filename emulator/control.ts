// The control API, for shells, workflows and tests (emulator/README.md lists every body): seeding
// users, projects, re-sign tasks, pipelines and builds; deciding reviews, retrying builds; arming
// faults; reading what happened. A body that is not what an endpoint takes is a 400 that says what
// is wrong; nothing is half-applied.
import { z } from 'zod';
import { ApiGateway, gatewaySchema } from './apigateway.ts';
import type { BuildWorld } from './builds.ts';
import { deliverBody, disableBody } from './callbacks.ts';
import { faultRuleBody } from './faults.ts';
import { filesBody } from './files.ts';
import type { Installation } from './installation.ts';
import { logFailBody } from './logs.ts';
import { pipelineSchema } from './pipeline-seed.ts';
import { projectBody } from './projects.ts';
import { retryBody, retryBuild, retryRefusal } from './retries.ts';
import { decideByControl, reviewBody } from './review-decisions.ts';
import { seedBuild, seededBuildBody } from './seeded-builds.ts';
import { signBody } from './signs.ts';
import { userBody } from './tokens.ts';
import { json, type Reply } from './wire.ts';

export const CONTROL_PREFIX = '/__emulator/';

/** A control endpoint: what it does with the installation and a body it has not checked yet. */
type Endpoint = (installation: Installation, input: unknown) => Promise<Reply>;

/** An endpoint whose body the schema checks before anything is done (or refused as bk-ci would). */
function endpoint<Schema extends z.ZodType>(
  body: Schema,
  run: (installation: Installation, input: z.output<Schema>) => unknown,
  refuse: (installation: Installation, input: z.output<Schema>) => Reply | undefined = () => undefined,
): Endpoint {
  return async (installation, input) => {
    const parsed = body.safeParse(input);
    if (!parsed.success)
      return json(400, { message: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ') });
    return refuse(installation, parsed.data) ?? json(200, await run(installation, parsed.data));
  };
}

const NO_BODY = z.object({});

/** Optional keys zod left out, typed as left out (zod adds no undefined values for absent keys). */
function defined<T extends object>(fields: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/** Every build started, in order, with where it is now: how many starts a client made, whatever answers it got. */
function buildList(builds: BuildWorld): Record<string, unknown>[] {
  return [...builds.builds.values()].map((build) => ({
    id: build.id,
    projectId: build.projectId,
    pipelineId: build.pipelineId,
    num: build.num,
    executeCount: build.executeCount,
    userId: build.userId,
    buildMsg: build.buildMsg,
    params: build.params,
    retries: build.retries.map((retry) => ({ executeCount: retry.executeCount, userId: retry.userId, scope: retry.scope })),
    ...builds.state(build),
  }));
}

/** `METHOD name` → endpoint, in the order the 404 for an unknown endpoint lists them. */
const ENDPOINTS: Record<string, Endpoint> = {
  'POST users': endpoint(userBody, (emu, input) => emu.tokens.addUser(input.userId, input.tokenLifetimeMs)),
  'POST projects': endpoint(
    projectBody,
    (emu, input) => ({ englishName: emu.projects.seed(defined(input)).englishName }),
    (emu, input) => emu.projects.duplicateOf(input),
  ),
  'POST signs': endpoint(signBody, (emu, input) => emu.signs.seed(defined(input))),
  'POST callbacks/disable': endpoint(
    disableBody,
    (emu, input) => emu.callbacks.disable(input),
    (emu, input) => emu.callbacks.refusal(input.projectId, input.event),
  ),
  'POST gateway': endpoint(gatewaySchema, (emu, input) => {
    emu.gateway = new ApiGateway(input, emu.tokens, emu.now);
    return { ok: true };
  }),
  'POST pipelines': endpoint(pipelineSchema, (emu, input) => {
    emu.builds.seed(input);
    return { ok: true };
  }),
  'POST reviews': endpoint(reviewBody, (emu, input) => decideByControl(emu.builds, input)),
  'POST builds/retry': endpoint(
    retryBody,
    (emu, input) => retryBuild(emu.builds, input),
    (emu, input) => {
      const build = emu.builds.builds.get(input.buildId);
      const refusal = build === undefined ? undefined : retryRefusal(emu.builds, build);
      return refusal === undefined ? undefined : json(400, refusal);
    },
  ),
  'POST builds': endpoint(seededBuildBody, (emu, input) => {
    const build = seedBuild(emu.builds, input);
    return { id: build.id, num: build.num };
  }),
  'POST logs/fail': endpoint(logFailBody, (emu, input) => {
    emu.logs.failSearches(input);
    return { ok: true };
  }),
  'POST files': endpoint(filesBody, (emu, input) => emu.files.set(input)),
  'POST faults': endpoint(faultRuleBody, (emu, input) => {
    emu.faults.add(input);
    return { ok: true, armed: emu.faults.list().length };
  }),
  'GET faults': endpoint(NO_BODY, (emu) => emu.faults.list()),
  'DELETE faults': endpoint(NO_BODY, (emu) => {
    emu.faults.clear();
    return { ok: true };
  }),
  'GET log': endpoint(NO_BODY, (emu) => emu.log),
  'GET builds': endpoint(NO_BODY, (emu) => buildList(emu.builds)),
  'POST deliver': endpoint(
    deliverBody,
    (emu, input) => emu.callbacks.deliver(input.projectId, input.event, input.data ?? {}),
    (emu, input) => emu.callbacks.refusal(input.projectId, input.event),
  ),
};

/** The answer to a request under /__emulator/: the endpoint's, a 404 that lists them, or a 400 for a body that is not JSON. */
export async function answerControl(installation: Installation, method: string, path: string, body: string): Promise<Reply> {
  const name = path.slice(CONTROL_PREFIX.length);
  const control = ENDPOINTS[`${method} ${name}`];
  if (control === undefined)
    return json(404, { message: `no control endpoint ${method} ${path}; there are: ${Object.keys(ENDPOINTS).join(', ')}` });
  let input: unknown = {};
  if (body.trim() !== '') {
    try {
      input = JSON.parse(body);
    } catch (error) {
      return json(400, { message: `the body is not JSON: ${String(error)}` });
    }
  }
  return control(installation, input);
}
