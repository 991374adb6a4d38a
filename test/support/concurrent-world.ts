// A world for a test that runs at the same time as others (describe.concurrent). vitest does not
// know which of several running tests a global onTestFinished belongs to: with worldForTest, a
// world could close when another test ends. The test's own context knows.
import type { TestContext } from 'vitest';
import { startWorld, type World, type WorldOptions } from './world.ts';

/** A world started in the test whose context is given, closed when that test finishes. */
export async function worldOf(test: Pick<TestContext, 'onTestFinished'>, o: WorldOptions = {}): Promise<World> {
  const w = await startWorld(o);
  test.onTestFinished(() => w.emu.close());
  return w;
}
