// zod, as every module takes it: configured before any schema is built, which is why each module
// imports z from here rather than from 'zod'.
import { z } from 'zod';

// A step parses each input and each answer's shape once or a few times. zod compiles an object
// schema into a function (new Function) at its first parse, which pays only over many parses:
// here it cost about a millisecond at every start (BENCHMARKS.md).
z.config({ jitless: true });

export { z };
