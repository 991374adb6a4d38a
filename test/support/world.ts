// One world for a test: an emulator of one flavour, its users, the project `demo` created by alice,
// and a clock the step and the emulator share (run() in this process) or real time (the built
// action). Written once here instead of in every file that needs it.
import { afterAll, afterEach, beforeAll, beforeEach, onTestFinished, type TestContext } from 'vitest';
import type { z } from 'zod';
import type { pipelineSchema } from '../../emulator/pipeline-seed.ts';
import type { ProjectSeed } from '../../emulator/projects.ts';
import { type Emulator, type EmulatorOptions, startEmulator } from '../../emulator/server.ts';
import { FakeClock } from './fake-clock.ts';

/** The day every fake clock starts on unless a test says otherwise. */
export const T0 = Date.UTC(2026, 5, 1);

export type PipelineSeed = Partial<z.input<typeof pipelineSchema>>;
type StageReview = NonNullable<NonNullable<PipelineSeed['phases']>[number]['review']>;

/** Stages Build and Release: Build runs `ms`, Release waits for `review`, then runs `ms`. */
export const reviewedPipeline = (review: StageReview, ms = 1000): PipelineSeed => ({
  stages: ['Build', 'Release'],
  phases: [
    { status: 'RUNNING', ms, stage: 'Build' },
    { status: 'STAGE_SUCCESS', stage: 'Release', review },
    { status: 'RUNNING', ms, stage: 'Release' },
  ],
});

/** The front doors a step reaches bk-ci through: bk-ci's gateway, the API as the spec says, the BlueKing API Gateway. */
export type Door = 'bkci' | 'spec' | 'apigw';
export const DOORS: readonly Door[] = ['bkci', 'spec', 'apigw'];
/** The emulator behind a door: the spec flavour, or bk-ci's with the API gateway in front. */
export const doorOptions = (door: Door): WorldOptions =>
  door === 'spec' ? { flavour: 'spec' } : door === 'apigw' ? { flavour: 'bkci', gateway: {} } : { flavour: 'bkci' };
/** The emulator's API gateway app, as a step's inputs (app state: add user-id). */
export const GATEWAY_APP = { gateway: 'bk-apigateway', 'app-code': 'ci-app', 'app-secret': 'app-secret-0001' } as const;

export interface WorldOptions extends EmulatorOptions {
  /** Real time (the built action cannot share a clock); by default a fake clock from T0. */
  realTime?: boolean;
  /** Users to add; the first is the one whose token `bkToken` is. Default: alice. */
  users?: readonly string[];
  /** The emulator's time from a clock the world does not own (a SkippingClock, say). */
  now?: () => number;
  /** A clock of the test's own (one that acts at set times, say), set to T0; by default a FakeClock. */
  clock?: () => FakeClock;
  /** The project `demo`, created by the first user. Default: true; fields given here are added to it. */
  project?: boolean | Partial<ProjectSeed>;
}

export interface World {
  emu: Emulator;
  /** The fake clock (its time stands still with `realTime`: nothing reads it then). */
  clock: FakeClock;
  /** The first user's bk-ci token. */
  bkToken: string;
  /** Every user's bk-ci token, by user id. */
  tokens: Record<string, string>;
  /** The first user's OpenAPI access token (issued with the bk-ci token, not again). */
  accessToken: string;
  /** Every user's OpenAPI access token, by user id. */
  accessTokens: Record<string, string>;
  /** Seeds a pipeline of project demo: `p-app` unless the seed names one. */
  pipeline(seed?: PipelineSeed): ReturnType<Emulator['seedPipeline']>;
  /** The inputs every step against this world starts from: base-url, bk-token, project-id. */
  connection(): Record<string, string>;
}

/** Starts a world; it closes when the test that started it ends, so tests may run concurrently. */
export async function startWorld(o: WorldOptions = {}): Promise<World> {
  const { realTime = false, users = ['alice'], project = true, clock: makeClock, now, ...emulator } = o;
  const clock = makeClock?.() ?? new FakeClock();
  clock.t = T0;
  const time = now ?? (realTime ? undefined : () => clock.now());
  // A request the emulator holds unanswered lets the step's request-timeout pass on the fake clock at once.
  const onHold = emulator.onHold ?? (realTime || now !== undefined ? undefined : () => clock.lapse());
  const emu = await startEmulator({
    flavour: 'bkci',
    ...emulator,
    ...(time === undefined ? {} : { now: time }),
    ...(onHold === undefined ? {} : { onHold }),
  });
  const added = users.map((u) => [u, emu.addUser(u)] as const);
  const tokens = Object.fromEntries(added.map(([u, a]) => [u, a.bkToken]));
  const accessTokens = Object.fromEntries(added.map(([u, a]) => [u, a.token.accessToken]));
  const first = users[0] ?? 'alice';
  if (project !== false)
    emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: first, ...(project === true ? {} : project) });
  const world: World = {
    emu,
    clock,
    bkToken: tokens[first] ?? '',
    tokens,
    accessToken: accessTokens[first] ?? '',
    accessTokens,
    pipeline: (seed = {}) => emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-app', ...seed }),
    connection: () => ({ 'base-url': emu.url, 'bk-token': world.bkToken, 'project-id': 'demo' }),
  };
  return world;
}

/**
 * A world started in the current test and closed when it finishes. A test that runs at the same
 * time as others (describe.concurrent) passes its context: vitest's global onTestFinished cannot
 * tell which running test it belongs to, and would close the world when another test ends.
 */
export async function worldForTest(o: WorldOptions = {}, test?: Pick<TestContext, 'onTestFinished'>): Promise<World> {
  const w = await startWorld(o);
  (test?.onTestFinished ?? onTestFinished)(() => w.emu.close());
  return w;
}

/**
 * A fresh world for each test of the file (or describe block) that calls it: the returned object's
 * fields are the current test's world. For tests that run one at a time.
 */
export function useWorld(o: WorldOptions = {}): World {
  const live = {} as World;
  beforeEach(async () => {
    Object.assign(live, await startWorld(o));
  });
  afterEach(() => live.emu.close());
  return live;
}

/**
 * One world for every test of the file (or describe block) that calls it, for tests that only read
 * what the world holds (a large seed paid once): started before the first test, closed after the
 * last; the armed faults and the request log are cleared after each test.
 */
export function useSharedWorld(o: WorldOptions = {}): World {
  const live = {} as World;
  beforeAll(async () => {
    Object.assign(live, await startWorld(o));
  });
  afterEach(() => {
    live.emu.faults.clear();
    live.emu.log.length = 0;
  });
  afterAll(() => live.emu.close());
  return live;
}
