// What `npm ci` prints on a machine whose own Node is not 24, as the README tells a newcomer to
// expect: npm checks every package's `engines` against that Node before it installs Node 24.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
// npm's own semver rules: npm checks engines with them.
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROOT } from '../support/dist-runner.ts';

const lock = z.object({
  packages: z.record(z.string(), z.object({ version: z.string().optional(), engines: z.unknown().optional() }).loose()),
});
const readLock = async () => lock.parse(JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')));

/** How many `npm warn EBADENGINE` notices `npm ci` prints under Node `version`: one per package (the project too) whose engines.node refuses it. */
async function engineWarnings(version: string): Promise<number> {
  const { packages } = await readLock();
  const node = (engines: unknown): string | undefined => z.object({ node: z.string() }).safeParse(engines).data?.node;
  return Object.values(packages).filter((p) => {
    const range = node(p.engines);
    return range !== undefined && !semver.satisfies(version, range);
  }).length;
}

describe('npm ci on a machine whose Node is not 24', () => {
  it('prints as many EBADENGINE notices as the README says to expect (Node 20, the last LTS before 22)', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const said = Number(/about (\d+) `npm warn EBADENGINE` notices/.exec(readme)?.[1]);
    const counted = await engineWarnings('20.20.2');
    // 61 at this writing (checked against a fresh clone's `npm ci` on Node 20.20.2: 61 notices, 308 lines).
    expect(Math.round(counted / 10) * 10).toBe(said);
    // And none under the Node 24 the install brings (the `node` package), which every npm script runs on.
    const installed = (await readLock()).packages['node_modules/node']?.version ?? '';
    expect(installed).toMatch(/^24\./);
    expect(await engineWarnings(installed)).toBe(0);
  });
});
