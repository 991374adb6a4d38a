// The emulator's fault plan: rules tried in order, each counting the matching requests it lets
// through (`skip`) and applying to the next `times` of them.
import { describe, expect, it } from 'vitest';
import { type Fault, FaultPlan, type FaultRule } from '../../emulator/faults.ts';

const A: Fault = { kind: 'status', status: 500 };
const B: Fault = { kind: 'status', status: 503 };
const taken = (rules: FaultRule[], n: number, path = '/x'): (number | undefined)[] => {
  const plan = new FaultPlan();
  plan.add(...rules);
  return Array.from({ length: n }, () => {
    const f = plan.take('GET', path);
    return f !== undefined && 'status' in f ? f.status : undefined;
  });
};

describe('FaultPlan', () => {
  it.each([
    ['one rule, once', [{ fault: A }], [500, undefined]],
    ['skip lets the first requests through', [{ skip: 2, fault: A }], [undefined, undefined, 500, undefined]],
    ['a rule still skipping leaves the request to the next rule', [{ skip: 1, fault: A }, { fault: B }], [503, 500, undefined]],
    ['the first ready rule wins; the later one waits its turn', [{ times: 2, fault: A }, { fault: B }], [500, 500, 503, undefined]],
    ['times Infinity never runs out', [{ times: Number.POSITIVE_INFINITY, fault: A }], [500, 500, 500]],
    ['a rule for another path is not counted', [{ path: '/y', skip: 1, fault: A }, { fault: B }], [503, undefined]],
  ] as const)('%s', (_, rules, expected) => {
    expect(taken([...rules], expected.length)).toEqual(expected);
  });
});
