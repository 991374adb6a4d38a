// What a pipeline's steps write to the build log, and when: the `logs` of a pipeline's seed
// (emulator/README.md) and of a retried run. The log service that serves these lines is
// emulator/logs.ts; how they are numbered and found, emulator/log-lines.ts.
import { z } from 'zod';

/** bk-ci's Constants.NORMAL_MAX_LINES: the most lines one after_line_logs answer holds. */
export const BKCI_LOG_PAGE = 10_000;
/** Generated lines a script may ask for: enough for any bench, not enough to exhaust the emulator's memory. */
const MAX_GENERATED = 1_000_000;

/** A step that writes lines: the ids bk-ci files them under (the build model names the same). */
const logStepSchema = z
  .object({
    /** The element id, `e-…`: LogLine.tag. */
    tag: z.string().regex(/^e-/),
    jobId: z.string().default(''),
    stepId: z.string().default(''),
    /** The job's hash id, `c-…`. */
    containerHashId: z.string().default(''),
  })
  .strict();

const lineTiming = {
  /** The run (1 first, 2 for the first retry …): a retried build's later run writes its own lines. */
  executeCount: z.number().int().min(1).default(1),
  /** ms from the agent's write to the log service's numbering (parallel jobs upload at different paces). */
  delayMs: z.number().int().min(0).default(0),
  /** ms from numbering to being searchable (ES refresh, a slow bulk batch): later lines can show first. */
  lagMs: z.number().int().min(0).default(0),
};

const logLineSchema = z
  .object({
    /** ms after build_start the agent writes it: its timestamp. After the build's end is allowed. */
    at: z.number().int().min(0),
    /** The tag of a step in `steps`. */
    step: z.string(),
    text: z.string(),
    subTag: z.string().default(''),
    /** A DEBUG line: left out unless the query asks for `debug=true`. */
    debug: z.boolean().default(false),
    ...lineTiming,
  })
  .strict();

/** Many lines spread evenly over [fromMs, toMs): `{i}` in `text` is the line's 1-based index in this generator. */
const logGeneratorSchema = z
  .object({
    count: z.number().int().min(1).max(MAX_GENERATED),
    fromMs: z.number().int().min(0).default(0),
    toMs: z.number().int().min(0),
    step: z.string(),
    text: z.string().default('line {i}'),
    ...lineTiming,
  })
  .strict();

export const logScriptSchema = z
  .object({
    steps: z.array(logStepSchema).min(1),
    lines: z.array(logLineSchema).default([]),
    generate: z.array(logGeneratorSchema).default([]),
    /** Lines per page; bk-ci's is 10,000 (smaller ones make hasMore easy to reach in a test). */
    pageSize: z.number().int().min(1).max(BKCI_LOG_PAGE).default(BKCI_LOG_PAGE),
    /**
     * ms after build_start (a retried run: after its retry) the build-level `finished` turns true. Default:
     * when the build ends. bk-ci can say it earlier (a job's stopLog collides with the build's row in
     * T_LOG_STATUS; docs/bkci/logs.md).
     */
    finishedAtMs: z.number().int().min(0).optional(),
    /** The n-th log requests of each build (after_line_logs, more_logs; 1-based) that answer 999: a failed search. */
    failQueries: z.array(z.number().int().min(1)).default([]),
  })
  .strict()
  .superRefine((script, ctx) => {
    const tags = new Set(script.steps.map((step) => step.tag));
    for (const list of ['lines', 'generate'] as const)
      for (const [index, { step }] of script[list].entries())
        if (!tags.has(step)) ctx.addIssue({ code: 'custom', path: [list, index], message: `step "${step}" is not one of steps[].tag` });
    if (script.generate.reduce((total, generator) => total + generator.count, 0) > MAX_GENERATED)
      ctx.addIssue({ code: 'custom', path: ['generate'], message: `at most ${MAX_GENERATED} generated lines in all` });
  });
export type LogScript = z.infer<typeof logScriptSchema>;

/** What a retried run writes: lines of the pipeline's log steps, `at` in ms after the retry. */
export const retryLogsSchema = z
  .object({
    lines: z.array(logLineSchema.omit({ executeCount: true })).default([]),
    generate: z.array(logGeneratorSchema.omit({ executeCount: true })).default([]),
  })
  .strict();
export type RetryLogs = z.output<typeof retryLogsSchema>;
