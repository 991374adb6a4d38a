// No temporary file survives a cancel or a full disk: the download of src/download/build-files.ts
// cancelled while a body is under way, and one file's transfer whose disk is full (the kernel's own
// ENOSPC, from /dev/full), against the emulator over loopback.
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalError } from '../../src/base/errors.ts';
import { fileLink } from '../../src/bkci/artifacts.ts';
import { downloadBuildFiles } from '../../src/download/build-files.ts';
import { PartFile, TempFiles } from '../../src/download/part-file.ts';
import { transfer } from '../../src/download/transfer.ts';
import { DEFAULT_RETRY_POLICY } from '../../src/http/retry.ts';
import { nodeStreamClient } from '../../src/http/stream-get.ts';
import { makeClient } from '../support/client.ts';
import { downloadDir, listed } from '../support/download-world.ts';
import { useWorld } from '../support/world.ts';

const job = { current: new AbortController() };
const w = useWorld({ onHold: () => job.current.abort() });

/** A build of p-app that ended with two files; the client the step would have. */
function ended() {
  w.pipeline({
    artifacts: [
      { path: 'app/App.ipa', size: 2_000_000 },
      { path: 'app/notes.txt', content: 'notes' },
    ],
  });
  const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' });
  job.current = new AbortController();
  const c = makeClient({ baseUrl: w.emu.url, bkToken: w.bkToken, clock: w.clock, signal: job.current.signal });
  return { id, c };
}

/** The build's files the patterns choose, into a new folder, with the job's signal. */
async function fetch(id: string, c: ReturnType<typeof ended>['c'], patterns: string[]) {
  const { dir } = await downloadDir();
  const ask = {
    patterns,
    root: dir,
    origins: [w.emu.url],
    token: w.bkToken,
    silenceMs: 30_000,
    retries: 3,
    deadline: w.clock.now() + 600_000,
  };
  const build = { projectId: 'demo', pipelineId: 'p-app', id };
  return { dir, fetched: await downloadBuildFiles(ask, build, { ...c, clock: w.clock, signal: job.current.signal }) };
}

describe('a cancel', () => {
  it('during a body leaves no temporary file and says the download was cancelled', async () => {
    const { id, c } = ended();
    w.emu.faults.add({ pattern: /App\.ipa$/, fault: { kind: 'stall', bytes: 500_000 } });
    const { dir, fetched } = await fetch(id, c, ['app/App.ipa']);
    expect(fetched.cancelled).toBe(true);
    expect(fetched.problem).toBe('the job was cancelled during the download; no partial file was kept');
    expect(await listed(dir)).toEqual([]);
  });
});

describe('a cancel before the download began', () => {
  it('(during a read before it, say the variables) says nothing was fetched, not that a transfer was cut', async () => {
    const { id, c } = ended();
    job.current.abort();
    const { dir, fetched } = await fetch(id, c, ['**']);
    expect(fetched.cancelled).toBe(true);
    expect(fetched.problem).toBe('the job was cancelled before the download began; no file was fetched');
    expect(w.emu.requests({ path: '/bkrepo/' })).toEqual([]);
    expect(await listed(dir)).toEqual([]);
  });
});

describe('a full disk', () => {
  it('fails the file in words and removes its temporary file', async () => {
    const { id, c } = ended();
    const link = await fileLink(c.api, 'demo', { type: 'PIPELINE', path: `/p-app/${id}/app/App.ipa` });
    const { dir } = await downloadDir();
    await mkdir(dir);
    const temps = new TempFiles();
    // The temporary file is made where it belongs; its writes go to /dev/full, whose every write the kernel refuses with ENOSPC.
    const part = await PartFile.open(dir, temps, (async (path: string, flags: number, mode: number) => {
      await (await open(path, flags, mode)).close();
      return open('/dev/full', 'w');
    }) as typeof open);
    expect(await listed(dir)).toEqual([expect.stringMatching(/^\.bkci-[0-9a-f]{12}\.part$/)]);
    const client = nodeStreamClient(4);
    const settings = {
      get: client.get,
      origins: [w.emu.url],
      token: w.bkToken,
      userAgent: 'test',
      clock: w.clock,
      random: () => 0,
      cancel: new AbortController().signal,
      deadline: w.clock.now() + 60_000,
      deadlineSignal: new AbortController().signal,
      silenceMs: 30_000,
      retry: DEFAULT_RETRY_POLICY,
      log: c.log,
      temps,
      onBytes: () => undefined,
    };
    const failed = await transfer({ link, path: 'app/App.ipa', size: 2_000_000 }, part, join(dir, 'App.ipa'), settings).then(
      () => undefined,
      (e: unknown) => e,
    );
    await client.close();
    expect(failed).toBeInstanceOf(LocalError);
    expect((failed as Error).message).toMatch(/^could not write .*\.part: the runner's disk is full$/);
    expect(await listed(dir)).toEqual([]);
    expect(temps.size).toBe(0);
  });
});
