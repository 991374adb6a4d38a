// JSON or YAML text, read two ways: exactly (parseJsonOrYaml: whole numbers beyond 2^53 to the
// digit), or as written (parseAsWritten: every scalar stays the text it was, for what bk-ci
// takes as strings). Either refuses what it cannot read as it was meant.

import { bigintsToExact, duplicateKey, parseExact, tooDeep } from '../base/json.ts';

/**
 * The value of JSON text read by `parse`, or undefined when the text is not JSON (a YAML flow
 * mapping also starts with '{'). Every input read as JSON passes here: a key given twice is
 * refused, since JSON.parse keeps the last and bk-ci's reader may keep the first, so what was
 * meant is not clear.
 */
function readJson(text: string, parse: (text: string) => unknown): { value: unknown } | undefined {
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined;
  const deep = tooDeep(text);
  if (deep !== undefined) throw new Error(deep);
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    return undefined;
  }
  const twice = duplicateKey(text);
  if (twice !== undefined) throw new Error(`it gives the key ${JSON.stringify(twice)} twice in one object`);
  return { value };
}

/** JSON or YAML text. YAML's parser loads only when needed; whole numbers beyond 2^53 stay exact. */
export async function parseJsonOrYaml(text: string): Promise<unknown> {
  const trimmed = text.trim();
  const json = readJson(trimmed, parseExact);
  if (json !== undefined) return json.value;
  const { parseDocument } = await import('yaml');
  // Silent: the library would report on stderr, quoting the input. What it would warn about (an
  // unknown tag, which it drops with its value) means the text is not read as it was written.
  const doc = parseDocument(trimmed, { schema: 'core', intAsBigInt: true, logLevel: 'silent' });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) throw new Error(problem.message);
  return bigintsToExact(doc.toJS());
}

/**
 * JSON or YAML text whose every scalar stays text, exactly as written: YAML's failsafe schema (a
 * plain `1.10`, `007`, `7e12345`, `0x1F`, `.inf`, `yes` or `null` is that text; a quoted one loses
 * only its quotes; an empty value is ""), JSON's numbers as their digits and its booleans as
 * words, its null as null. A YAML tag cannot apply to text, so one is refused, not resolved.
 */
export async function parseAsWritten(text: string): Promise<unknown> {
  const trimmed = text.trim();
  const json = readJson(trimmed, (source) =>
    JSON.parse(source, (_key, value: unknown, context?: { source?: string }) =>
      typeof value === 'number' ? (context?.source ?? String(value)) : typeof value === 'boolean' ? String(value) : value,
    ),
  );
  if (json !== undefined) return json.value;
  const { parseAllDocuments, visit, isScalar } = await import('yaml');
  // Silent: the library's warnings would go to stderr, where the runner reads commands; each is refused here instead.
  const docs = parseAllDocuments(trimmed, { schema: 'failsafe', logLevel: 'silent' });
  const [doc, ...more] = Array.isArray(docs) ? docs : [];
  if (doc === undefined) return null;
  if (more.length > 0) throw new Error('holds more than one YAML document ("---" starts another): give one mapping');
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) {
    const line = problem.linePos?.[0]?.line;
    throw new Error(
      `${/Unresolved tag/.test(problem.message) ? 'a YAML tag (such as !!int) cannot apply to a value sent as text: remove it' : (problem.message.split('\n')[0] ?? '')}${line === undefined ? '' : ` (line ${line})`}`,
    );
  }
  let cut: string | undefined;
  visit(doc, {
    Pair(_key, pair) {
      cut ??= isScalar(pair.value) ? commentCut(String(pair.key), pair.value, trimmed) : undefined;
    },
    Seq(_key, seq) {
      for (const item of seq.items) cut ??= isScalar(item) ? commentCut(undefined, item, trimmed) : undefined;
    },
  });
  if (cut !== undefined) throw new Error(cut);
  // An anchor (&x) or alias (*x) would send another value than the text written there: quote it.
  let marked: string | undefined;
  visit(doc, {
    Alias(_key, node) {
      marked ??= `*${node.source}`;
    },
    Node(_key, node) {
      if (node.anchor !== undefined) marked ??= `&${node.anchor}`;
    },
  });
  if (marked !== undefined)
    throw new Error(`"${marked}" is a YAML anchor or alias, not text: quote the value ("${marked}") to send it as written`);
  return doc.toJS();
}

/**
 * Why a plain value would lose its tail, if one would: YAML reads ` #` as the start of a comment,
 * so `NOTE: fix #123` gives `fix`. A pasted commit message or PR title is not meant to be cut,
 * and a comment after a value cannot be told from text, so the input is refused with how to
 * quote it (a quoted value with a comment after it, or a comment on a line of its own, is clear).
 */
function commentCut(
  name: string | undefined,
  node: {
    type?: string | undefined;
    comment?: string | null | undefined;
    range?: [number, number, number] | null | undefined;
    value: unknown;
  },
  source: string,
): string | undefined {
  if (node.type !== 'PLAIN' || !node.comment || node.range == null) return undefined;
  const written = (source.slice(node.range[0]).split(/\r?\n/)[0] ?? '').trim();
  const example = `${name === undefined ? '- ' : `${name}: `}${JSON.stringify(written)}`;
  return `${name === undefined ? 'an item' : name} is written ${JSON.stringify(written)}, but YAML reads " #" as the start of a comment, so only ${JSON.stringify(String(node.value))} would be sent: quote the value to send it whole (${example})`;
}
