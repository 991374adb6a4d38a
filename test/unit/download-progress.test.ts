// What a long download says while it runs (src/download/progress.ts), files 4 at once
// (src/download/pool.ts), and which header is the file's checksum (src/download/answer.ts).
import { describe, expect, it } from 'vitest';
import { checksumOf } from '../../src/download/answer.ts';
import { eachAtOnce } from '../../src/download/pool.ts';
import { Progress } from '../../src/download/progress.ts';
import { FakeClock } from '../support/fake-clock.ts';

const MiB = 1024 * 1024;

describe('progress', () => {
  /** Lines said while `total` bytes arrive in `chunk`s, the clock moving `msPerChunk` each. */
  function run(total: number, chunk: number, msPerChunk: number): string[] {
    const clock = new FakeClock();
    const lines: string[] = [];
    const p = new Progress(total, 2, clock, { info: (m) => lines.push(m) });
    for (let done = 0; done < total; done += chunk) {
      clock.t += msPerChunk;
      p.add(Math.min(chunk, total - done));
      if (done + chunk >= total / 2 && done < total / 2) p.fileDone();
    }
    return lines;
  }

  it('says nothing for 8 MiB or less, however long it takes', () => {
    expect(run(8 * MiB, MiB, 60_000)).toEqual([]);
  });

  it('says bytes, percent and speed at most every 10 s for more', () => {
    const lines = run(100 * MiB, MiB, 1000);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('downloading: 10 MiB of 100 MiB (10 %), 1 MiB/s; 0 of 2 files done');
    expect(lines[5]).toBe('downloading: 60 MiB of 100 MiB (60 %), 1 MiB/s; 1 of 2 files done');
    expect(lines.at(-1)).toBe('downloading: 100 MiB of 100 MiB (100 %), 1 MiB/s; 1 of 2 files done');
  });

  it('never says more than one line in 10 s, however fast the chunks come', () => {
    expect(run(1024 * MiB, 64 * 1024, 1)).toHaveLength(1);
  });

  it('goes back when a file starts again', () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const p = new Progress(20 * MiB, 1, clock, { info: (m) => lines.push(m) });
    p.add(10 * MiB);
    p.add(-10 * MiB);
    clock.t += 10_000;
    p.add(2 * MiB);
    expect(lines).toEqual(['downloading: 2 MiB of 20 MiB (10 %), 205 KiB/s; 0 of 1 files done']);
  });
});

describe('files at once', () => {
  it('runs at most `width` at a time, every item once, in order of start', async () => {
    let now = 0;
    let most = 0;
    const started: number[] = [];
    await eachAtOnce([1, 2, 3, 4, 5, 6, 7, 8, 9], 4, async (n) => {
      started.push(n);
      now++;
      most = Math.max(most, now);
      await new Promise((r) => setTimeout(r, n % 3));
      now--;
    });
    expect(most).toBe(4);
    expect(started.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await eachAtOnce([], 4, () => Promise.reject(new Error('never')));
  });
});

describe('the checksum of an answer', () => {
  const sha = 'a'.repeat(64);
  it.each([
    [{ 'x-checksum-sha256': sha }, { value: sha, from: 'X-Checksum-Sha256' }],
    [{ 'x-checksum-sha256': ` ${'A'.repeat(64)} ` }, { value: sha, from: 'X-Checksum-Sha256' }],
    [
      { 'x-checksum-sha256': sha, etag: 'b'.repeat(64) },
      { value: sha, from: 'X-Checksum-Sha256' },
    ],
    [{ etag: sha }, { value: sha, from: 'ETag' }],
    [{ etag: `"${sha}"` }, { value: sha, from: 'ETag' }],
    [{ etag: `W/"${sha}"` }, { value: sha, from: 'ETag' }],
    [
      { 'x-checksum-sha256': 'not-hex', etag: sha },
      { value: sha, from: 'ETag' },
    ],
    [{ etag: '"d41d8cd98f00b204e9800998ecf8427e"' }, undefined],
    [{ etag: 'a'.repeat(63) }, undefined],
    [{ etag: 'g'.repeat(64) }, undefined],
    [{}, undefined],
  ])('%j', (headers, checksum) => {
    expect(checksumOf(headers)).toEqual(checksum);
  });
});
