import type { Emulator } from '../../emulator/server.ts';

/**
 * Seeds a re-sign task that stays RUNNING until the step has read it `reads` times, then
 * succeeds: a wait of that many polls however long the step took to start. (`runningMs` counts
 * from the seed, so a step that starts slowly on a busy machine would see it finished at once.)
 * Returns a function that stops watching; call it once the step has ended.
 */
export function signRunningFor(emu: Emulator, resignId: string, reads: number): () => void {
  const task = emu.seedSign({ resignId, runningMs: 3_600_000 });
  const timer = setInterval(() => {
    if (emu.requests({ method: 'GET', path: `/${resignId}/detail` }).length < reads) return;
    task.runningMs = 0;
    clearInterval(timer);
  }, 5);
  return () => clearInterval(timer);
}
