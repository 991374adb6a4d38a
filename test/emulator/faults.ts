/** What the emulator does instead of answering normally. */
export type Fault =
  | { kind: 'status'; status: number; body?: string; contentType?: 'json' | 'text' | 'html'; headers?: Record<string, string> }
  /** HTTP 200 whose wrapper says failure. */
  | { kind: 'wrapper-status'; status: number; message?: string }
  /** The socket is destroyed before any byte of the response. */
  | { kind: 'reset' }
  /** No answer until the client gives up or the emulator closes. */
  | { kind: 'hang' }
  /** HTTP 200 whose JSON body stops half-way. */
  | { kind: 'truncate' }
  /** Headers and part of the body, then nothing more: the body never ends. */
  | { kind: 'stall' }
  /** The normal answer, late. */
  | { kind: 'delay'; ms: number };

export interface FaultRule {
  method?: string;
  /** Matched against the path without query: a substring, or a RegExp. */
  path?: string | RegExp;
  /** How many requests it applies to; `Infinity` for all. Default 1. */
  times?: number;
  /** How many matching requests it lets through before it applies. Default 0. */
  skip?: number;
  fault: Fault;
}

interface Armed extends FaultRule {
  left: number;
  toSkip: number;
}

export class FaultPlan {
  #rules: Armed[] = [];

  add(...rules: FaultRule[]): void {
    for (const rule of rules) this.#rules.push({ ...rule, left: rule.times ?? 1, toSkip: rule.skip ?? 0 });
  }

  clear(): void {
    this.#rules = [];
  }

  /** The first armed rule that matches, consumed once. */
  take(method: string, path: string): Fault | undefined {
    const rule = this.#rules.find(
      (r) =>
        r.left > 0 &&
        (r.method === undefined || r.method.toUpperCase() === method) &&
        (r.path === undefined || (typeof r.path === 'string' ? path.includes(r.path) : r.path.test(path))),
    );
    if (rule === undefined) return undefined;
    if (rule.toSkip > 0) {
      rule.toSkip -= 1;
      return undefined;
    }
    rule.left -= 1;
    return rule.fault;
  }
}
