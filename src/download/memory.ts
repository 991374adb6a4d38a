// Memory that does not grow with the file. Each read from a socket is a new 64 KiB buffer outside
// V8's heap; V8 frees them only at a collection, which it starts once some 64 MiB of them wait,
// later still on a busy machine: a 1 GiB download's peak stood 75 to 130 MiB above a 1 MiB one's
// (BENCHMARKS.md). A young-generation collection every few MiB of body frees them at about 1 ms each.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes of body between two collections. */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;

type Gc = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async' }) => void;
let gc: Gc | undefined;

/** V8's collector, as --expose-gc gives it, taken once: in a new context the flag has effect. */
function collector(): Gc | undefined {
  if (gc === undefined) {
    // Node's documentation warns that flags set after start may do nothing: then no collection is
    // forced, and memory is what V8 makes of it (a function is checked for, not assumed).
    try {
      setFlagsFromString('--expose-gc');
      const exposed: unknown = runInNewContext('gc');
      gc = typeof exposed === 'function' ? (o) => Reflect.apply(exposed, undefined, [o]) : () => undefined;
    } catch {
      gc = () => undefined;
    }
  }
  return gc;
}

/** Counts bytes taken from sockets; collects the young generation every COLLECT_EVERY_BYTES. */
export function byteCollector(every = COLLECT_EVERY_BYTES): (bytes: number) => void {
  let since = 0;
  return (bytes) => {
    since += bytes;
    if (since < every) return;
    since = 0;
    collector()?.({ type: 'minor', execution: 'sync' });
  };
}
