// Which of the build's files come into the runner and where each lands (src/download/plan.ts): the
// path below the artifact root in either realm, the paths refused by table, and a property: no
// path bk-ci could send that the plan takes leads outside download-path, on Linux, macOS or Windows.
import { posix, win32 } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FileInfo } from '../../src/bkci/artifacts.ts';
import { compile } from '../../src/download/glob.ts';
import { belowRoot, localProblem, planDownload } from '../../src/download/plan.ts';

const B = { projectId: 'demo', pipelineId: 'p-1', id: 'b-2' };

describe('a file’s path below the artifact root', () => {
  it.each([
    ['/p-1/b-2/app/App.ipa', B, 'app/App.ipa'],
    ['bk-archive/demo/p-1/b-2/app/App.ipa', B, 'app/App.ipa'],
    ['/bk-archive/demo/p-1/b-2/App.ipa', B, 'App.ipa'],
    ['/reports/index.html', B, 'reports/index.html'],
    ['bk-custom/demo/reports/index.html', B, 'reports/index.html'],
    ['/p-1/b-2//etc/passwd', B, '/etc/passwd'],
    ['/p-1/b-2/../x', B, '../x'],
    ['/p-9/b-2/app/App.ipa', B, 'p-9/b-2/app/App.ipa'],
    ['/p-9/b-2/app/App.ipa', { projectId: 'demo', id: 'b-2' }, 'app/App.ipa'],
    ['b-2/x', B, 'b-2/x'],
    ['/p-1/b-2/b-2/x', B, 'b-2/x'],
    ['bk-custom/other/x', B, 'bk-custom/other/x'],
    ['b-2/x', { projectId: 'demo', id: 'b-2' }, 'b-2/x'],
    ['/p-9/b-2/x', { projectId: 'demo', id: 'b-2' }, 'x'],
    ['//reports/x', B, 'reports/x'],
  ])('%j of %j is %j', (fullPath, b, local) => {
    expect(belowRoot(fullPath, b)).toBe(local);
  });
});

describe('a local path', () => {
  it.each([
    ['', 'it names no file below the artifact root'],
    ['a\u0000b', 'it holds a control character'],
    ['a\nb', 'it holds a control character'],
    ['a\u0085b', 'it holds a control character'],
    ['a\u007fb', 'it holds a control character'],
    ['a\u009fb', 'it holds a control character'],
    ['a\\b', 'it holds a backslash, a folder separator on Windows'],
    ['..\\..\\x', 'it holds a backslash, a folder separator on Windows'],
    ['/etc/passwd', 'it is an absolute path'],
    ['C:/x', 'it holds a drive letter (C:), a drive on Windows'],
    ['c:x', 'it holds a drive letter (C:), a drive on Windows'],
    ['a/C:x', 'it holds a drive letter (C:), a drive on Windows'],
    ['a/ /c:/ ', 'it holds a drive letter (C:), a drive on Windows'],
    ['a/.. /x', 'it holds a name of only dots and spaces, which Windows reads as another'],
    ['...', 'it holds a name of only dots and spaces, which Windows reads as another'],
    [' ', 'it holds a name of only dots and spaces, which Windows reads as another'],
    ['a/..:/x', 'it holds a name of only dots and spaces, which Windows reads as another'],
    ['a/:stream', 'it holds a name of only dots and spaces, which Windows reads as another'],
    ['..', 'it holds "..", which leads out of its folder'],
    ['a/../../x', 'it holds "..", which leads out of its folder'],
    ['a/..', 'it holds "..", which leads out of its folder'],
    ['./a', 'it holds ".", a folder that is no folder'],
    ['a/./b', 'it holds ".", a folder that is no folder'],
    ['a//b', 'it holds an empty folder name (//)'],
    ['a/', 'it holds an empty folder name (//)'],
  ])('%j is refused: %s', (local, why) => {
    expect(localProblem(local)).toBe(why);
  });

  it.each([
    'a',
    'app/App.ipa',
    'a..b/c',
    '.hidden',
    'x/1:2.log',
    'name with spaces',
    '文件/应用.ipa',
    'build-12:30.log',
    'a/xC:y',
    'notes.',
    'a b /c',
    'a\u00a0b',
  ])('%j is taken', (local) => {
    expect(localProblem(local)).toBeUndefined();
  });
});

const file = (fullPath: string, o: Partial<FileInfo> = {}): FileInfo => ({
  name: fullPath.split('/').at(-1) ?? '',
  fullPath,
  size: 10,
  folder: false,
  artifactoryType: 'PIPELINE',
  ...o,
});

describe('the plan', () => {
  it('chooses by pattern, leaves out by !, skips folders, counts the rest and names the patterns that chose nothing', () => {
    const records = [
      file('/p-1/b-2/app/App.ipa'),
      file('/p-1/b-2/app/App.dSYM.zip'),
      file('/p-1/b-2/app/', { folder: true }),
      file('/p-1/b-2/logs', { folder: true }),
      file('/reports/junit.xml', { artifactoryType: 'CUSTOM_DIR', size: null }),
      file('/p-1/b-2/README'),
    ];
    const plan = planDownload(records, B, ['app/**', 'reports/*', '!**/*.zip', '*.apk'].map(compile));
    expect(plan.files).toEqual([
      { name: 'App.ipa', path: '/p-1/b-2/app/App.ipa', type: 'PIPELINE', size: 10, local: 'app/App.ipa' },
      { name: 'junit.xml', path: '/reports/junit.xml', type: 'CUSTOM_DIR', size: undefined, local: 'reports/junit.xml' },
    ]);
    expect(plan.excluded).toEqual([{ path: '/p-1/b-2/app/App.dSYM.zip', why: 'left out by !**/*.zip' }]);
    expect(plan.folders).toEqual(['/p-1/b-2/app/', '/p-1/b-2/logs']);
    expect(plan.unchosen).toBe(1);
    expect(plan.empty).toEqual(['*.apk']);
    expect(plan.all).toEqual(['app/App.ipa', 'app/App.dSYM.zip', 'reports/junit.xml', 'README']);
    expect(plan.refused).toEqual([]);
  });

  it('refuses two files on one local path (case, Unicode), and a file where another needs a folder', () => {
    const records = [
      file('/p-1/b-2/App.ipa'),
      file('/p-1/b-2/app.IPA'),
      file('/p-1/b-2/caf\u00e9.txt'),
      file('/p-1/b-2/cafe\u0301.txt'),
      file('/p-1/b-2/out'),
      file('/p-1/b-2/Out/log.txt'),
      file('/p-1/b-2/ok.txt'),
    ];
    const plan = planDownload(records, B, [compile('**')]);
    expect(plan.files.map((f) => f.local)).toEqual(['ok.txt']);
    expect(plan.refused).toEqual([
      { path: '/p-1/b-2/App.ipa', why: 'refused: it would land on the same local file as /p-1/b-2/app.IPA' },
      { path: '/p-1/b-2/app.IPA', why: 'refused: it would land on the same local file as /p-1/b-2/App.ipa' },
      { path: '/p-1/b-2/caf\u00e9.txt', why: 'refused: it would land on the same local file as /p-1/b-2/cafe\u0301.txt' },
      { path: '/p-1/b-2/cafe\u0301.txt', why: 'refused: it would land on the same local file as /p-1/b-2/caf\u00e9.txt' },
      { path: '/p-1/b-2/out', why: 'refused: it would stand where /p-1/b-2/Out/log.txt needs a folder' },
      { path: '/p-1/b-2/Out/log.txt', why: 'refused: its folder Out is a file of the build (/p-1/b-2/out)' },
    ]);
  });

  it('names every other file on the same path, and a folder of two levels that is a file; keeps the type bk-ci gave, or none', () => {
    const records = [
      file('/p-1/b-2/X.txt'),
      file('/p-1/b-2/x.txt'),
      file('/p-1/b-2/x.TXT'),
      file('/p-1/b-2/a/b'),
      file('/p-1/b-2/a/b/c.txt'),
      file('/p-1/b-2/\u00df.txt'),
      file('/p-1/b-2/SS.txt', { artifactoryType: null }),
    ];
    const plan = planDownload(records, B, [compile('**')]);
    expect(plan.refused.map((r) => r.why)).toEqual([
      'refused: it would land on the same local file as /p-1/b-2/x.txt, /p-1/b-2/x.TXT',
      'refused: it would land on the same local file as /p-1/b-2/X.txt, /p-1/b-2/x.TXT',
      'refused: it would land on the same local file as /p-1/b-2/X.txt, /p-1/b-2/x.txt',
      'refused: it would stand where /p-1/b-2/a/b/c.txt needs a folder',
      'refused: its folder a/b is a file of the build (/p-1/b-2/a/b)',
    ]);
    // Windows and macOS fold case letter by letter: ß is not SS.
    expect(plan.files).toEqual([
      { name: '\u00df.txt', path: '/p-1/b-2/\u00df.txt', type: 'PIPELINE', size: 10, local: '\u00df.txt' },
      { name: 'SS.txt', path: '/p-1/b-2/SS.txt', type: '', size: 10, local: 'SS.txt' },
    ]);
  });

  it('refuses a chosen hostile path, and never a path no pattern chose', () => {
    const plan = planDownload([file('/p-1/b-2/../../x'), file('/p-1/b-2/a\\b')], B, [compile('**/x')]);
    expect(plan.refused).toEqual([{ path: '/p-1/b-2/../../x', why: 'refused: it holds "..", which leads out of its folder' }]);
    expect(plan.unchosen).toBe(1);
  });
});

/** Path segments as a hostile server could make them: dots, separators, drive letters, controls, Unicode. */
const segment = fc.oneof(
  fc.constantFrom('..', '.', '', 'C:', 'c:', '\\', '..\\..', '/', '//', '\u0000', '\n', 'CON', 'a', 'App.ipa', '~', '%2e%2e', 'é'),
  fc.string({ maxLength: 6 }),
  fc.stringMatching(/^[./\\:a-zA-Z]{1,4}$/),
);
const hostilePath = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/'));

describe('the property', () => {
  it('every path the plan takes stays inside download-path, on a POSIX runner and on Windows', () => {
    fc.assert(
      fc.property(hostilePath, fc.boolean(), (path, withBuildFolder) => {
        const fullPath = withBuildFolder ? `/p-1/b-2/${path}` : path;
        const plan = planDownload([file(fullPath)], B, [compile('**')]);
        for (const f of plan.files) {
          for (const [p, root] of [
            [posix, '/home/runner/work/files'],
            [win32, 'D:\\a\\app\\files'],
          ] as const) {
            const target = p.resolve(root, ...f.local.split('/'));
            const rel = p.relative(root, target);
            expect(rel === '' || rel.split(p.sep)[0] === '..' || p.isAbsolute(rel), `${JSON.stringify(fullPath)} → ${target}`).toBe(false);
            // No name Windows would read as another: a drive, dots and spaces only, a stream of such.
            for (const name of f.local.split('/')) expect(name).not.toMatch(/^[A-Za-z]:|^[. ]*$|^[. ]*:/);
            expect(p.basename(target)).not.toBe('');
          }
        }
        expect(plan.files.length + plan.refused.length + plan.folders.length).toBe(1);
      }),
      { numRuns: 2000 },
    );
  });
});
