// The bundle the runner executes: dist/index.js, with no node_modules beside it.
// Rollup rather than ncc, by measurement (BENCHMARKS.md): it tree-shakes @actions/core's unused
// OIDC client and the HTTP stack behind it, which ncc keeps and loads at every start.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { takeBuiltins } from './scripts/builtins-taken.mjs';

/**
 * Modules rollup may drop when nothing of theirs is used: @actions/core's OIDC client
 * (@actions/http-client with its own undici 6), its platform helpers (@actions/exec,
 * @actions/io) and its summary writer (the action appends the summary itself: core's reads
 * node:fs's promises at load). Their top-level code only defines things. Nothing else is declared side-effect-free: the
 * undici 8 the action loads behind a proxy keeps all of its code.
 */
const SIDE_EFFECT_FREE = /node_modules\/@actions\/(http-client|exec|io)\/|node_modules\/@actions\/core\/lib\/summary\.js$/;

/** The package folder a bundled module came from, for its licence. */
function packageDir(id) {
  // Virtual modules of the CommonJS plugin start with a NUL and may end in ?query.
  const m = /^(?:\0[^/]*)*(.*node_modules\/(?:@[^/]+\/)?[^/?]+)\//.exec(id);
  return m?.[1];
}

/**
 * dist/licenses.txt: every bundled package's licence, as ncc wrote it; and dist/package.json,
 * which tells Node that dist/ holds ES modules.
 */
const distFiles = {
  name: 'dist-files',
  generateBundle(_, bundle) {
    const dirs = new Set();
    // Only what a chunk holds code of: a module tree-shaking emptied is listed with nothing rendered.
    for (const chunk of Object.values(bundle))
      for (const [id, m] of Object.entries(chunk.modules ?? {})) if (m.renderedLength > 0) dirs.add(packageDir(id));
    const parts = [];
    for (const dir of [...dirs].filter(Boolean).sort()) {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
      parts.push(`${pkg.name}\n${pkg.license ?? ''}\n${file ? readFileSync(join(dir, file), 'utf8') : ''}`);
    }
    this.emitFile({ type: 'asset', fileName: 'licenses.txt', source: `${parts.join('\n\n')}\n` });
    this.emitFile({ type: 'asset', fileName: 'package.json', source: '{\n  "type": "module"\n}\n' });
  },
};

/** Node's own modules. */
const isExternal = (id) =>
  id.startsWith('node:') ||
  [
    'os',
    'path',
    'fs',
    'crypto',
    'http',
    'https',
    'net',
    'tls',
    'events',
    'stream',
    'util',
    'url',
    'zlib',
    'buffer',
    'assert',
    'async_hooks',
    'console',
    'diagnostics_channel',
    'dns',
    'perf_hooks',
    'querystring',
    'string_decoder',
    'timers',
    'worker_threads',
    'child_process',
    'http2',
    'process',
    'sqlite',
    'util/types',
    'stream/web',
  ].includes(id.replace(/^node:/, ''));

/**
 * @actions/github's HTTP client brings undici 6 of its own (half a megabyte in the runner's
 * download). Its fetch and ProxyAgent are undici 8's too: @actions/github's modules get the undici the
 * action already carries, in the file that loads only behind a proxy or with `check`.
 */
const oneUndici = {
  name: 'one-undici',
  async resolveId(source, importer) {
    if (source !== 'undici' || importer === undefined || !/node_modules\/@actions\/github\//.test(importer)) return null;
    return this.resolve('undici', join(import.meta.dirname, 'package.json'), { skipSelf: true });
  },
};

/** Node's own modules taken with process.getBuiltinModule, not imported: see scripts/builtins-taken.mjs. */
const builtinsTaken = { name: 'builtins-taken', renderChunk: (code) => ({ code: takeBuiltins(code, isExternal), map: null }) };

/**
 * Which file a module goes to. One file holds what every start loads (what src/index.ts imports)
 * and what the operations other than the builds share: each further file a start reads costs
 * more than its bytes. Each operation's module is a file of its own, loaded when the step runs
 * it; the build room (src/pipeline/) and what only it and the build operations use load with a
 * build operation; undici only behind a proxy; yaml only for YAML input.
 */
let startFile;
function manualChunks(id, { getModuleIds, getModuleInfo }) {
  // GitHub's API (@actions/github, Octokit, and the undici 6 @actions/github brings): only with check.
  if (
    /node_modules\/(@actions\/github|@octokit|universal-user-agent|before-after-hook|fast-content-type-parse|json-with-bigint)\//.test(id)
  )
    return 'github';
  // The undici 6 that @actions/github's HTTP client brings is GitHub's; the action's own undici 8 is behind a proxy only.
  if (/node_modules\/@actions\/[^/]+\/node_modules\/undici\//.test(id)) return 'github';
  if (/node_modules\/undici\//.test(id)) return 'undici';
  // The CommonJS plugin's few helpers, shared by undici's and GitHub's files: in the start file, so neither loads the other.
  if (id === '\0commonjsHelpers.js') return 'index';
  if (/node_modules\/yaml\//.test(id)) return 'yaml';
  startFile ??= modulesOfTheStartFile([...getModuleIds()], getModuleInfo);
  if (startFile.has(id)) return 'index';
  // The build room and what it stands on, beyond the start file, with the one way the build
  // operations follow a build (its check run's loader among it): one file every build operation
  // (download-artifacts too) loads, rather than a file more for each set of modules two of them share.
  if (/\/src\/(pipeline|bkci|inputs)\/|\/src\/operations\/(build-follow|build-check|given-build)\.ts$/.test(id)) return 'watch';
  // The build's files into the runner: loaded only when a step asks for them.
  if (/\/src\/download\/(?!glob\.ts$|credential\.ts$)|\/src\/http\/stream-get\.ts$/.test(id)) return 'download';
  return undefined;
}

function modulesOfTheStartFile(ids, info) {
  /**
   * What a module reaches by static imports: what loads with it. The modules rollup drops are left
   * out, and what only they import: placed in a chunk, they would leave their imports of Node's
   * modules behind as bare imports.
   */
  const reach = (from) => {
    const seen = new Set();
    const stack = [from];
    while (stack.length > 0) {
      const m = stack.pop();
      if (seen.has(m) || SIDE_EFFECT_FREE.test(m)) continue;
      seen.add(m);
      stack.push(...(info(m)?.importedIds ?? []));
    }
    return seen;
  };
  const inBuildRoom = (m) => /\/src\/pipeline\//.test(m);
  const operations = ids.filter((m) => /\/src\/operations\//.test(m) && (info(m)?.dynamicImporters.length ?? 0) > 0);
  const entry = ids.find((m) => info(m)?.isEntry);
  const out = new Set(reach(entry));
  for (const op of operations) {
    const reached = reach(op);
    if (![...reached].some(inBuildRoom)) for (const m of reached) out.add(m);
  }
  for (const op of operations) out.delete(op);
  return out;
}

export default {
  input: 'src/index.ts',
  output: {
    dir: 'dist',
    format: 'es',
    entryFileNames: 'index.js',
    chunkFileNames: '[name].js',
    // The lazily loaded parts, named for what they hold: undici (only behind a proxy), yaml (only for
    // YAML input), download (only when a step asks for the build's files), each operation's module (only when the step runs it) and what only those need.
    // Everything every start loads is one file: each further file read at start costs more than
    // its bytes.
    manualChunks,
    // An operation's file imports what it uses of the start file, not the start file's own imports again.
    hoistTransitiveImports: false,
    // The chunks are ES modules (import, import()); dist/package.json says so to Node.
    sourcemap: false,
  },
  // Node's own modules stay outside the bundle (and are taken by builtinsTaken).
  external: isExternal,
  // Node's own modules have no side effect the action needs: one is imported where it is used.
  treeshake: { moduleSideEffects: (id, external) => !external && !SIDE_EFFECT_FREE.test(id) },
  plugins: [
    distFiles,
    oneUndici,
    nodeResolve({ preferBuiltins: true, exportConditions: ['node'] }),
    commonjs({ ignoreDynamicRequires: true }),
    // Smaller to download with every job and to parse at every start; names kept for stack traces.
    terser({ ecma: 2022, module: true, compress: { passes: 1 }, mangle: true, format: { comments: false } }),
    builtinsTaken,
    typescript({
      tsconfig: './src/tsconfig.json',
      compilerOptions: {
        noEmit: false,
        outDir: 'dist',
        noEmitOnError: true,
        declaration: false,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
      },
    }),
  ],
  onwarn(warning, warn) {
    // undici's circular imports, zod's annotations and CommonJS `this` are theirs and harmless.
    if (['CIRCULAR_DEPENDENCY', 'INVALID_ANNOTATION', 'THIS_IS_UNDEFINED'].includes(warning.code ?? '')) return;
    warn(warning);
  },
};
