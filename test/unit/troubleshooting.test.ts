// docs/troubleshooting.md says it lists every message; this keeps it so. The messages come from
// src/ itself (test/support/code-messages.ts: every error class's message, every warning, every
// log line, setFailed, with what src/ does not write as holes), so a message moved to another file
// or function keeps its row, and one added without a row fails here. Each row's first column
// quotes messages in code spans, `…` standing for any text; a quote matches a message it is a part
// of. Which lines count: every error and warning, and every log line but those that only say what
// the step is doing (PROGRESS below: waiting, polling, retrying a request, downloading, the
// result line). And the reverse: every quote matches a message of its row's kind, so no row stays
// when its message is gone.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CodeMessage, codeMessages, HOLE, type Kind } from '../support/code-messages.ts';
import { ROOT } from '../support/dist-runner.ts';

/** A quote of a row's first column: the message, and the kinds the words before it name. */
interface Quote {
  line: number;
  text: string;
  kinds: Kind[];
}

/**
 * The quotes of every table row on the page (not the header, not the separator): each code span of
 * the first column, `\|` read as `|` (a span of two backticks may hold one). The words just before
 * a quote name its kind: "warning", "log" (a line of the step's log), "error", or several
 * ("error or warning"); none, an error.
 */
function quotesOf(page: string): Quote[] {
  const quotes: Quote[] = [];
  page.split('\n').forEach((line, i) => {
    if (!line.startsWith('|') || /^\|[\s:|-]+\|$/.test(line)) return;
    const [first = ''] = line.slice(1).split(/(?<!\\)\|/);
    let from = 0;
    for (const m of first.matchAll(/(`+)(.+?)\1(?!`)/g)) {
      const words = first.slice(from, m.index).toLowerCase();
      from = m.index + m[0].length;
      const kinds: Kind[] = [];
      if (/\bwarning\b/.test(words)) kinds.push('warning');
      if (/\blog\b/.test(words)) kinds.push('info');
      if (/\berror\b/.test(words) || kinds.length === 0) kinds.push('error');
      let text = (m[2] ?? '').replace(/\\\|/g, '|');
      if (m[1] !== '`' && text.startsWith(' ') && text.endsWith(' ')) text = text.slice(1, -1);
      quotes.push({ line: i + 1, text, kinds });
    }
  });
  return quotes;
}

/** A quote as a pattern: its words as written, each `…` any text (a part of the message the code fills in too); `whole`, the whole line. */
const patternOf = (quote: string, whole = false): RegExp => {
  const words = quote
    .split(HOLE)
    .map((part) => part.replace(/\s+/g, ' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^]*?');
  return new RegExp(whole ? `^${words}$` : words, 'u');
};

/** Letters outside the holes: a text with fewer is made of other messages (`…: …`), not one of its own. */
const letters = (text: string): number => (text.split(HOLE).join('').match(/\p{L}/gu) ?? []).length;
const OWN_WORDS = 6;

/**
 * Log lines that only say what the step is doing, and need no row, each as a whole line (a quote
 * of the page matches a part of a message; these match all of it, so that they cover no line
 * they do not name). A log line that tells of a decision the user may want to change (a re-run,
 * a check taken over, a lost answer looked for) has its row instead.
 */
const PROGRESS = [
  'waiting for build …: timeout …, a poll every …',
  'waiting for re-sign task …: timeout …, a poll every …',
  'started build … of pipeline …',
  'found build … of pipeline …',
  'still … after …, … poll…',
  '…: a poll failed (…); waiting on',
  '…: bk-ci answers again, after … of failed polls',
  '…: …: queued…',
  '…: …: waiting for …',
  '…: HTTP …; retry … of … in …',
  '…: network error (…); retry … of … in …',
  '…: no answer within request-timeout; retry … of … in …',
  '…: HTTP …; not retried: the server asks to wait … (Retry-After), longer than the action waits for a retry (…)',
  '…: …; resuming at byte …, retry … of … in …',
  '…: …; starting it again, retry … of … in …',
  '…: …; trying again, retry … of … in …',
  "read the rest of the build's log for … after its end",
  '… has more than … lines: the rest of them are only in the log file…',
  'last … of … lines of …:',
  'received …: stopping',
  'bk-ci says the access token expired; getting a new one',
  'renewed the access token; the new one expires at …',
  'got an access token for …, valid until …',
  'downloading … of the … files of build …',
  'downloaded … (…, SHA-256 verified) in …',
  'downloaded … (…, size verified; no checksum was sent) in …',
  "bk-ci lists … folders among the build's files, which are not downloaded: …",
  '… files of build …, which ended …, downloaded to …',
  '1 file of build …, which ended …, downloaded to …',
  'approved the review of …; bk-ci applies it moments later',
  'rejected the review of …; bk-ci applies it moments later',
  're-enabling …: bk-ci had disabled them after failed deliveries, and registering again does not enable them',
  'removed …: no longer in events (replace-events)',
  'bk-ci retried …: following its run …',
  'bk-ci retried …: its run …',
  'the build … was stopped in bk-ci (stop-on-cancel)',
  'the build … had already ended',
  'check: "…" on …: …',
  '… project …, not read back',
  'project … not found',
  '… project…',
  '…: HTTP …, no data',
];

/** Every text of each message that is one of its own, with the message's kind and place. */
const textsOf = (messages: CodeMessage[]) =>
  messages.flatMap((m) => m.texts.filter((t) => letters(t) >= OWN_WORDS).map((text) => ({ kind: m.kind, at: m.at, text })));

/** The texts no quote of the page matches (a log line may be progress instead), as `kind at: text`. */
function withoutRow(messages: CodeMessage[], quotes: Quote[]): string[] {
  const quoted = quotes.map((q) => ({ kinds: q.kinds, pattern: patternOf(q.text) }));
  const progress = PROGRESS.map((p) => patternOf(p, true));
  return textsOf(messages)
    .filter(
      ({ kind, text }) =>
        !quoted.some((q) => q.kinds.includes(kind) && q.pattern.test(text)) && !(kind === 'info' && progress.some((p) => p.test(text))),
    )
    .map(({ kind, at, text }) => `${kind} ${at}: ${text}`);
}

const page = await readFile(join(ROOT, 'docs', 'troubleshooting.md'), 'utf8');
const quotes = quotesOf(page);
const messages = codeMessages(ROOT);
const texts = textsOf(messages);

describe('docs/troubleshooting.md lists every message the code can give', () => {
  it('reads the messages of src/ and the quotes of the page', () => {
    expect(messages.length).toBeGreaterThan(150);
    expect(quotes.length).toBeGreaterThan(150);
    // Through helpers, tables and callers: a refused retry's reasons, a check's GitHub failure, a re-run's why.
    for (const part of [
      'bk-ci refused to retry build …: bk-ci retries only builds that started in the last … days',
      'check: GitHub refused to write the check run (…): the token may not write checks',
      're-run (attempt …): build #… (…), started by attempt … of this job, had another rerun-key',
      'invalid input: user-id is required with access-token',
    ])
      expect(
        texts.some((t) => t.text.includes(part)),
        part,
      ).toBe(true);
  });

  it('every error, warning and log line that is not progress has its row', () => {
    expect(withoutRow(messages, quotes)).toEqual([]);
  });

  it('every quote is a message of the kind the page names (no row outlives its message)', () => {
    const stale = quotes.filter((q) => {
      const p = patternOf(q.text);
      return !texts.some((t) => q.kinds.includes(t.kind) && p.test(t.text));
    });
    expect(stale.map((q) => `line ${q.line} (${q.kinds.join(', ')}): ${q.text}`)).toEqual([]);
  });

  it('every quote names enough of its message to be found (no quote of holes alone)', () => {
    expect(quotes.filter((q) => letters(q.text) < OWN_WORDS).map((q) => `line ${q.line}: ${q.text}`)).toEqual([]);
  });

  it('every progress line is one the step writes', () => {
    const info = texts.filter((t) => t.kind === 'info');
    expect(PROGRESS.filter((line) => !info.some((t) => patternOf(line, true).test(t.text)))).toEqual([]);
  });
});

/**
 * How much of `quote` the code's `template` writes itself: of the quote's characters, the share
 * one text can take from the template's own words, where that text is an instance of the
 * template (each hole any text) and holds an instance of the quote (each `…` any text). A quote
 * with real values (`API_NOT_FOUND (1640401)`) where the code has a hole keeps most of its share;
 * one in other words than the code's has almost none (a hole of the code's may stand for it, but
 * then the code did not write it).
 */
function written(template: string, quote: string): number {
  const [t, q] = [[...template.replace(/\s+/g, ' ')], [HOLE, ...quote.replace(/\s+/g, ' '), HOLE]];
  const width = q.length + 1;
  const best = new Int32Array((t.length + 1) * width).fill(-1);
  best[0] = 0;
  const reach = (i: number, j: number, v: number): void => {
    if (i <= t.length && j <= q.length && (best[i * width + j] ?? 0) < v) best[i * width + j] = v;
  };
  for (let i = 0; i <= t.length; i++)
    for (let j = 0; j <= q.length; j++) {
      const v = best[i * width + j] ?? -1;
      if (v < 0) continue;
      // A hole (either side's) takes the other side's next character, or ends; equal words count.
      if (t[i] === HOLE) reach(i + 1, j, v);
      if (t[i] === HOLE && j < q.length) reach(i, j + 1, v);
      if (q[j] === HOLE) reach(i, j + 1, v);
      if (q[j] === HOLE && i < t.length) reach(i + 1, j, v);
      if (t[i] !== undefined && t[i] !== HOLE && t[i] === q[j]) reach(i + 1, j + 1, v + (t[i] === ' ' ? 0 : 1));
    }
  const own = q.filter((c) => c !== HOLE && c !== ' ').length;
  return Math.max(0, best[t.length * width + q.length] ?? 0) / own;
}
/** The share of a quote the code must write itself. */
const WRITTEN = 0.6;

describe("the README's first hour quotes what the code says", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const hour = /^## Your first hour$([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const quoted = [...hour.matchAll(/\*\*(?:Warning )?`([^`]+)`\*\*/g)].map((m) => (m[1] ?? '').replace(/\s+/g, ' '));

  it('finds its quotes', () => {
    expect(quoted.length).toBeGreaterThanOrEqual(7);
  });

  it.each(quoted)('%s', (quote) => {
    // The texts that hold half of its words, then the share the best of them writes.
    const words = quote.match(/\p{L}{4,}/gu) ?? [];
    const near = texts.filter((t) => words.filter((w) => t.text.includes(w)).length * 2 >= words.length);
    const share = Math.max(0, ...near.map((t) => written(t.text, quote)));
    expect(share).toBeGreaterThanOrEqual(WRITTEN);
  });

  it("tells a quote in other words than the code's", () => {
    const found = 'project "…" was not found (or the user may not see it)';
    expect(written(found, 'project "demo" was not found')).toBeGreaterThan(WRITTEN);
    expect(written(found, 'project "demo" is missing')).toBeLessThan(WRITTEN);
    const ignored = 'operation … does not read this input, so it was ignored: …';
    expect(written(ignored, 'does not read this input, so it was ignored: resign-id')).toBeGreaterThan(WRITTEN);
    expect(written(ignored, 'does not read these inputs, so they were ignored')).toBeLessThan(WRITTEN);
  });
});

describe('a message added without a row fails', () => {
  // src/base/ as it is, and a new file that warns through a table, a helper and its caller's argument, a function named to map, and throws.
  const found = codeMessages(ROOT, {
    files: ['src/base/errors.ts', 'src/base/log.ts'],
    extra: { 'src/pipeline/unlisted-message.ts': readFileSync(join(ROOT, 'test', 'support', 'unlisted-message.ts.txt'), 'utf8') },
  });

  it('finds the new message through its table, its helper and its caller, and says it has no row', () => {
    expect(withoutRow(found, quotes)).toEqual([
      'warning src/pipeline/unlisted-message.ts:12: flux check: the flux capacitor is low; the build goes on',
      'warning src/pipeline/unlisted-message.ts:12: flux check: the flux capacitor is gone; the build goes on',
      'warning src/pipeline/unlisted-message.ts:12: flux check: …; the build goes on',
      'error src/pipeline/unlisted-message.ts:17: the capacitor … is unknown',
      'warning src/pipeline/unlisted-message.ts:23: the capacitor … needs 1.21 gigawatts',
    ]);
  });

  it('is quiet once the page has a row for it', () => {
    const more = quotesOf(
      '| warning `flux check: …; the build goes on` | x | y |\n| `the capacitor … is unknown` | x | y |\n| warning `the capacitor … needs 1.21 gigawatts` | x | y |',
    );
    expect(withoutRow(found, [...quotes, ...more])).toEqual([]);
  });
});
