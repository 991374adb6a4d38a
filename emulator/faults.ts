import { z } from 'zod';

/** What the emulator does instead of answering normally. */
const faultSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('status'),
    status: z.number().int().min(100).max(599),
    body: z.string().optional(),
    contentType: z.enum(['json', 'text', 'html']).optional(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  /** HTTP 200 whose wrapper says failure. */
  z.object({ kind: z.literal('wrapper-status'), status: z.number().int(), message: z.string().optional() }),
  /** The socket is destroyed before any byte of the response. */
  z.object({ kind: z.literal('reset') }),
  /** No answer until the client gives up or the emulator closes. */
  z.object({ kind: z.literal('hang') }),
  /** HTTP 200 whose JSON body stops half-way. */
  z.object({ kind: z.literal('truncate') }),
  /** The normal answer's status and headers (a build file's with `set` as in `headers`) and its first `bytes` bytes, then the connection drops. */
  z.object({ kind: z.literal('cut'), bytes: z.number().int().min(0), set: z.record(z.string(), z.string().nullable()).optional() }),
  /** Headers and part of the body (a build file's first `bytes`, by default half of it), then nothing more: the body never ends. */
  z.object({ kind: z.literal('stall'), bytes: z.number().int().min(0).optional() }),
  /** A build file answered whole, with an X-Checksum-Sha256 and ETag that are not its bytes'. */
  z.object({ kind: z.literal('checksum') }),
  /** A build file's normal answer with these headers set (null: left out), e.g. another ETag, no Accept-Ranges. */
  z.object({ kind: z.literal('headers'), set: z.record(z.string(), z.string().nullable()) }),
  /** The normal answer, late. */
  z.object({ kind: z.literal('delay'), ms: z.number().int().min(0).max(600_000) }),
  /**
   * The normal answer with these fields set in its `data` object (a status answer about another
   * build: `{"id": "b-other"}`; a status nobody knows; a field gone: `null`).
   */
  z.object({ kind: z.literal('patch'), data: z.record(z.string(), z.unknown()) }),
]);
export type Fault = z.infer<typeof faultSchema>;

export interface FaultRule {
  method?: string;
  /** The path exactly as sent, without the query: `/ms/openapi/api/apigw/v3/projects/demo`. */
  path?: string;
  /** Or a pattern the path must match. */
  pattern?: RegExp;
  /** How many requests it applies to; `Infinity` for all. Default 1. */
  times?: number;
  /** How many matching requests it lets through before it applies. Default 0. */
  skip?: number;
  /**
   * The request is handled first (a start starts a build), then the fault replaces the answer:
   * a lost answer after the work is done.
   */
  after?: boolean;
  fault: Fault;
}

/** A rule as the control API takes it: `pattern` is a regular expression's source, `times: null` means always. */
export const faultRuleBody = z
  .object({
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE']).optional(),
    path: z.string().startsWith('/').optional(),
    pattern: z
      .string()
      .refine((pattern) => {
        try {
          new RegExp(pattern);
          return true;
        } catch {
          return false;
        }
      }, 'pattern is not a valid regular expression')
      .optional(),
    times: z.number().int().min(1).nullable().optional(),
    skip: z.number().int().min(0).optional(),
    after: z.boolean().optional(),
    fault: faultSchema,
  })
  .strict()
  .refine((r) => r.path === undefined || r.pattern === undefined, 'give path or pattern, not both')
  .transform(
    (rule): FaultRule => ({
      fault: rule.fault,
      times: rule.times === null ? Infinity : (rule.times ?? 1),
      ...(rule.method === undefined ? {} : { method: rule.method }),
      ...(rule.path === undefined ? {} : { path: rule.path }),
      ...(rule.pattern === undefined ? {} : { pattern: new RegExp(rule.pattern) }),
      ...(rule.skip === undefined ? {} : { skip: rule.skip }),
      ...(rule.after === undefined ? {} : { after: rule.after }),
    }),
  );

/** A rule as armed: how many more requests it applies to, how many it still lets through first. */
interface ArmedRule extends FaultRule {
  left: number;
  toSkip: number;
}

export class FaultPlan {
  #rules: ArmedRule[] = [];

  add(...rules: FaultRule[]): void {
    for (const rule of rules) this.#rules.push({ ...rule, left: rule.times ?? 1, toSkip: rule.skip ?? 0 });
  }

  clear(): void {
    this.#rules = [];
  }

  /** The armed rules, for `GET /__emulator/faults`. */
  list(): { method?: string; path?: string; pattern?: string; left: number | null; skip: number; after?: boolean; fault: Fault }[] {
    return this.#rules
      .filter((r) => r.left > 0)
      .map((rule) => ({
        ...(rule.method === undefined ? {} : { method: rule.method }),
        ...(rule.path === undefined ? {} : { path: rule.path }),
        ...(rule.pattern === undefined ? {} : { pattern: rule.pattern.source }),
        left: Number.isFinite(rule.left) ? rule.left : null,
        skip: rule.toSkip,
        ...(rule.after ? { after: true } : {}),
        fault: rule.fault,
      }));
  }

  /** The first armed rule that matches, consumed once. */
  take(method: string, path: string): Fault | undefined {
    return this.takeRule(method, path)?.fault;
  }

  /**
   * The same, with whether the fault comes after the request is handled. Rules are tried in order:
   * one that still lets requests through counts this one and leaves it to the rules after it.
   */
  takeRule(method: string, path: string): { fault: Fault; after: boolean } | undefined {
    for (const rule of this.#rules) {
      if (rule.left <= 0 || !matches(rule, method, path)) continue;
      if (rule.toSkip > 0) {
        rule.toSkip -= 1;
        continue;
      }
      rule.left -= 1;
      return { fault: rule.fault, after: rule.after === true };
    }
    return undefined;
  }
}

const matches = (rule: FaultRule, method: string, path: string): boolean =>
  (rule.method === undefined || rule.method.toUpperCase() === method) &&
  (rule.path === undefined || rule.path === path) &&
  (rule.pattern === undefined || rule.pattern.test(path));
