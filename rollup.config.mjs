// The bundle the runner executes: dist/index.js, with no node_modules beside it.
// Rollup rather than ncc, by measurement (BENCHMARKS.md): it tree-shakes @actions/core's unused
// OIDC client and the HTTP stack behind it, which ncc keeps and loads at every start.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';

/**
 * Modules rollup may drop when nothing of theirs is used: @actions/core's OIDC client
 * (@actions/http-client with its own undici 6) and its platform helpers (@actions/exec,
 * @actions/io). Their top-level code only defines things. Nothing else is declared
 * side-effect-free: the undici 8 the action loads behind a proxy keeps all of its code.
 */
const SIDE_EFFECT_FREE = /node_modules\/@actions\/(http-client|exec|io)\//;

/** The package folder a bundled module came from, for its licence. */
function packageDir(id) {
  // Virtual modules of the CommonJS plugin start with a NUL and may end in ?query.
  const m = /^\0?(.*node_modules\/(?:@[^/]+\/)?[^/?]+)\//.exec(id);
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
    for (const chunk of Object.values(bundle)) for (const id of Object.keys(chunk.modules ?? {})) dirs.add(packageDir(id));
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

export default {
  input: 'src/index.ts',
  output: {
    dir: 'dist',
    format: 'es',
    entryFileNames: 'index.js',
    chunkFileNames: '[name].js',
    // The lazily loaded parts, named for what they hold: undici (only behind a proxy), yaml (only for
    // YAML input), the build operations' runs (*-run.js, with watch.js: only when a build operation
    // runs). Rollup names the chunk of code both the start and those share after its first module.
    manualChunks: (id) => (/node_modules\/undici\//.test(id) ? 'undici' : /node_modules\/yaml\//.test(id) ? 'yaml' : undefined),
    // Top-level await in index.ts needs ES modules; dist/package.json says so to Node.
    sourcemap: false,
  },
  // Node's own modules stay imports.
  external: (id) =>
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
    ].includes(id.replace(/^node:/, '')),
  treeshake: { moduleSideEffects: (id) => !SIDE_EFFECT_FREE.test(id) },
  plugins: [
    distFiles,
    nodeResolve({ preferBuiltins: true, exportConditions: ['node'] }),
    commonjs({ ignoreDynamicRequires: true }),
    // Smaller to download with every job and to parse at every start; names kept for stack traces.
    terser({ ecma: 2022, module: true, compress: { passes: 1 }, mangle: true, format: { comments: false } }),
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
