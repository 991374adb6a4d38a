// Node's own modules taken with process.getBuiltinModule rather than imported, in each chunk
// rollup writes (rollup.config.mjs). An ES import of one makes Node build a facade that reads
// every export, and some exports are getters that load more of Node: node:fs's ReadStream loads
// its streams, node:crypto's webcrypto the Web Crypto API, node:http's a copy of undici (about
// 4 ms a start together, BENCHMARKS.md). Taken this way, a module gives only the names used.

/** One import as rollup writes them at a chunk's top: a default, a namespace or named bindings, or none. */
const IMPORT = /^\s*import\s*(?:(?:([\w$]+)\s*,?\s*)?(?:\*\s*as\s+([\w$]+)|\{([^}]*)\})?\s*from\s*)?(["'])([^"']+)\4\s*;?/;

/**
 * The chunk with its leading imports of modules `isBuiltin` names rewritten; other imports, and
 * everything after the leading imports, as they were. getBuiltinModule returns the module itself
 * (module.exports), which is what a default import of one of Node's modules gives; it has no
 * `default` of its own, so `default as x` is taken as the module.
 */
export function takeBuiltins(code, isBuiltin) {
  let rest = code;
  const kept = [];
  const taken = [];
  for (let m = IMPORT.exec(rest); m !== null; m = IMPORT.exec(rest)) {
    rest = rest.slice(m[0].length);
    const [whole, byDefault, namespace, named, , from] = m;
    if (!isBuiltin(from)) {
      kept.push(whole.trim());
      continue;
    }
    const module = `process.getBuiltinModule(${JSON.stringify(from.startsWith('node:') ? from : `node:${from}`)})`;
    const bindings = [];
    for (const name of [byDefault, namespace]) if (name !== undefined) taken.push(`const ${name}=${module};`);
    for (const pair of (named ?? '').split(',')) {
      const [name, as = name] = pair.trim().split(/\s+as\s+/);
      if (name === undefined || name === '') continue;
      if (name === 'default') taken.push(`const ${as}=${module};`);
      else bindings.push(name === as ? name : `${name}:${as}`);
    }
    if (bindings.length > 0) taken.push(`const{${bindings.join(',')}}=${module};`);
    if (byDefault === undefined && namespace === undefined && named === undefined) taken.push(`${module};`);
  }
  return `${kept.join('')}${taken.join('')}${rest}`;
}
