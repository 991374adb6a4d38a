// The hook through which others follow the wait (a GitHub check run): told after every poll
// that got a status, with the stage and the review it waits for, and once at the end with the
// conclusion; a hook that throws never changes the wait. watchBuild() against the emulator.
import { describe, expect, it } from 'vitest';
import { BUILD_START, buildId } from '../../src/bkci/builds.ts';
import { type BuildView, buildOf } from '../../src/pipeline/build.ts';
import { watchBuild } from '../../src/pipeline/watch.ts';
import { makeClient, watchContext } from '../support/client.ts';
import { useWorld } from '../support/world.ts';

const w = useWorld();

async function watch(onView: (v: BuildView) => void) {
  w.pipeline({
    stages: ['Build', 'Release'],
    phases: [
      { status: 'RUNNING', ms: 2000, stage: 'Build' },
      { status: 'RUNNING', ms: 2000, stage: 'Release' },
    ],
  });
  const c = makeClient({ baseUrl: w.emu.url, bkToken: w.bkToken, clock: w.clock });
  try {
    const started = await c.api.call({
      endpoint: BUILD_START,
      params: { projectId: 'demo' },
      query: { pipelineId: 'p-app' },
      data: buildId,
    });
    const id = started.data?.id ?? '';
    return await watchBuild(
      buildOf({ projectId: 'demo', pipelineId: 'p-app', id }),
      { wait: true, consoleUrl: undefined, stopOnCancel: false, onReview: 'wait', onView },
      watchContext(c.api, w.clock, c.log),
    );
  } finally {
    await c.close();
  }
}

describe('onView', () => {
  it('after each poll, with the stage under way; once at the end with the conclusion', async () => {
    const views: BuildView[] = [];
    const o = await watch((v) => views.push(v));
    expect(o.outputs.conclusion).toBe('success');
    const polls = Number(o.outputs.polls);
    expect(views).toHaveLength(polls + 1);
    expect(views.slice(0, -1).every((v) => v.conclusion === undefined)).toBe(true);
    expect(views.at(-1)).toMatchObject({ conclusion: 'success', status: 'SUCCEED' });
    expect(views.map((v) => v.stage).filter((s) => s !== undefined)).toContain('Release');
  });

  it('a hook that throws changes nothing in the wait', async () => {
    const o = await watch(() => {
      throw new Error('the check run is down');
    });
    expect(o.outputs.conclusion).toBe('success');
  });
});
