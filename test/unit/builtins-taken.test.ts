import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types.
import { takeBuiltins } from '../../scripts/builtins-taken.mjs';

const isBuiltin = (id: string): boolean => id.startsWith('node:') || ['os', 'fs', 'crypto'].includes(id);
const take = (code: string): string => takeBuiltins(code, isBuiltin);
const G = (m: string): string => `process.getBuiltinModule("node:${m}")`;

describe('takeBuiltins: the leading imports of a chunk, Node modules taken with getBuiltinModule', () => {
  it.each([
    ['named, renamed', 'import{readFileSync as r,existsSync}from"node:fs";go()', `const{readFileSync:r,existsSync}=${G('fs')};go()`],
    ['default', 'import A from"node:assert";go()', `const A=${G('assert')};go()`],
    ['default with named', 'import c,{EOL as h}from"os";go()', `const c=${G('os')};const{EOL:h}=${G('os')};go()`],
    ['namespace', 'import*as f from"fs";go()', `const f=${G('fs')};go()`],
    [
      'default as a name: the module itself',
      'import{default as Q,ok}from"node:assert";go()',
      `const Q=${G('assert')};const{ok}=${G('assert')};go()`,
    ],
    ['bare', 'import"node:net";go()', `${G('net')};go()`],
    [
      'a chunk of ours is kept, first',
      'import{a as b}from"./index.js";import{join as j}from"node:path";go()',
      `import{a as b}from"./index.js";const{join:j}=${G('path')};go()`,
    ],
    [
      'unminified, single quotes',
      "import { tmpdir } from 'node:os';\nimport * as crypto from 'crypto';\ngo();",
      `const{tmpdir}=${G('os')};const crypto=${G('crypto')};\ngo();`,
    ],
    ['only the leading imports', 'go();const s=\'import x from "node:fs"\';', 'go();const s=\'import x from "node:fs"\';'],
    ['a name with $', 'import{randomUUID as $e}from"node:crypto";go()', `const{randomUUID:$e}=${G('crypto')};go()`],
  ])('%s', (_, code, expected) => {
    expect(take(code)).toBe(expected);
  });

  it('what it writes runs: each name is the module’s own', () => {
    const code = take(
      'import{join as j}from"node:path";import c,{EOL as e}from"os";import{default as A}from"node:assert";globalThis.r=[j("a","b"),c.EOL===e,typeof A];',
    );
    new Function(code)();
    expect((globalThis as { r?: unknown }).r).toEqual(['a/b', true, 'function']);
  });
});
