// The text sent to GitHub (src/github/text.ts, src/github/body.ts): every piece scrubbed of the
// step's secrets before it is escaped or cut; rendered, it makes no link, image, HTML, mention or
// reference, reads as the text it was (ids and codes exactly, nothing invisible inside), and fits
// GitHub's limits. Rendered with marked (GitHub-flavoured) to see what a reader sees.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { updateBody } from '../../src/github/body.ts';
import { fitParts, inert, MESSAGE_LIMIT, markdown, OUTPUT_LIMIT, type Part, plainLine, TITLE_LIMIT } from '../../src/github/text.ts';
import type { CheckView } from '../../src/github/view.ts';
import { Secrets } from '../../src/runner/secrets.ts';
import { elements, outsideCode, seen } from '../support/github-markdown.ts';

const none = (t: string): string => t;
const line = (...spans: Part & { kind: 'line' } extends { spans: infer S } ? S : never): Part => ({ kind: 'line', spans });

/** The text as one line is shown: breaks as ⏎, tabs as spaces, other control characters as their pictures. */
const asOneLine = (text: string): string =>
  [
    ...text
      .replace(/\r\n|\r|\n/g, ' ⏎ ')
      .replace(/\t/g, ' ')
      .trim(),
  ]
    .map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? String.fromCharCode(0x2400 + (c.charCodeAt(0) % 0x80)) : c))
    .join('');

describe('a line of bk-ci text', () => {
  it.each([
    ['plain words', 'the build failed', 'the build failed'],
    ['Markdown escaped', '*a* _b_ [c](d) <b> ~e~ `f` # g', '\\*a\\* \\_b\\_ \\[c\\]\\(d\\) \\<b\\> \\~e\\~ \\`f\\` \\# g'],
    ['a mention as code', 'ask @admin now', 'ask `@admin` now'],
    ['an e-mail as code', 'mail ops@example.com', 'mail `ops@example.com`'],
    ['a reference as code', 'see #12 and owner/repo#3', 'see `#12` and `owner/repo#3`'],
    ['GH- references as code', 'GH-26 fixed', '`GH-26` fixed'],
    ['a URL as code, whole', '(see https://evil.example/x)', '`(see` `https://evil.example/x)`'.replace('`(see` ', '\\(see ')],
    ['www. as code', 'www.evil.example', '`www.evil.example`'],
    ['a build id as code, exactly', 'build b-0123456789abcdef0123456789abcdef ended', 'build `b-0123456789abcdef0123456789abcdef` ended'],
    ['an error code as code', '2199001: exit 2', '`2199001:` exit 2'],
    ['six hex digits stay text', 'code 123456', 'code 123456'],
    ['an emoji shortcode as code', 'done :tada:', 'done `:tada:`'],
    ['backticks inside a code word', 'x`@y`', '`` x`@y` ``'],
    ['a run of backticks inside', '@a``b', '```@a``b```'],
    ['a code word starting with a backtick', '`@x', '`` `@x ``'],
    ['spaces kept as they are', 'a  b \u00a0c', 'a  b \u00a0c'],
    ['a pipe never inside code', '@a|@b', '`@a`\\|`@b`'],
    ['line breaks shown', 'a\nb\r\nc', 'a ⏎ b ⏎ c'],
    ['control characters as pictures', 'a\u0007b\tc', 'a\u2407b c'],
    ['cut after its limit', 'x'.repeat(1005), `${'x'.repeat(1000)}… \\(5 more characters\\)`],
  ])('%s', (_, text, md) => {
    expect(inert(text)).toBe(md);
  });

  it('renders as the text it was, with nothing linked: no element but the paragraph and code', () => {
    const text = '<img src=x> ![i](http://e/x.png) [a](https://evil.example) @admin #12 www.evil.example 0123456789abcdef01 <b>&amp;';
    const md = markdown([line(text)], none);
    expect(seen(md).trim()).toBe(text);
    expect(new Set(elements(md))).toEqual(new Set(['p', 'code']));
    expect(outsideCode(md)).not.toMatch(/@admin|#12|www\.|https?:|0123456789abcdef01/);
  });

  it('property: whatever the text, a reader sees it as it was (one line), and GitHub links nothing of it', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab1f@#:/.-_*`[]()<>!|~&\\ \n'.split('')), maxLength: 60 }), fc.string(), (a, b) => {
        for (const text of [a, b]) {
          const md = markdown([line(text)], none);
          expect(seen(md).trim()).toBe(asOneLine(text));
          expect(elements(md).filter((e) => e !== 'p' && e !== 'code')).toEqual([]);
          expect(outsideCode(md)).not.toMatch(/@[\w-]|#\w|:\/\/|[\da-f]{7}/i);
        }
      }),
    );
  });
});

describe('parts', () => {
  it('an empty cell is a space, so the row keeps its cells', () => {
    expect(markdown([{ kind: 'table', title: 'T', headers: ['A', 'B'], rows: [['', 'x']] }], none)).toBe(
      '### T\n\n| A | B |\n| --- | --- |\n|   | x |',
    );
  });

  it('a table: cells inert, a code cell exact, the heading above', () => {
    const md = markdown(
      [{ kind: 'table', title: 'Failed steps', headers: ['Step', 'Error'], rows: [['Compile | @x', [{ code: '2199001' }, ': exit *2*']]] }],
      none,
    );
    expect(md).toBe('### Failed steps\n\n| Step | Error |\n| --- | --- |\n| Compile \\| `@x` | `2199001`\\: exit \\*2\\* |');
    expect(seen(md)).toContain('2199001: exit *2*');
  });

  it('lines: in a code block no line can close, each line cut, control characters shown', () => {
    const md = markdown(
      [{ kind: 'lines', title: 'Last lines of A', lines: ['```', 'a ```` b', '@x', 'y'.repeat(410), '\u001b[31mred'] }],
      none,
    );
    const [heading, , fence = ''] = md.split('\n');
    expect(heading).toBe('### Last lines of A');
    expect(fence).toBe('`````text');
    expect(md.endsWith('\n`````')).toBe(true);
    expect(md).toContain(`${'y'.repeat(400)}… (10 more characters)`);
    expect(md).toContain('\na ```` b\n@x\n');
    expect(md).toContain('\u241b[31mred');
  });

  it('a code span: exact, a pipe escaped between spans; bold inert', () => {
    expect(markdown([line({ strong: 'Build #1' }, ' ', { code: 'b-1|2' }, ' ok')], none)).toBe('**Build `#1`** `b-1`\\|`2` ok');
    expect(markdown([line({ code: '|x|' }), line({ code: 'a||b' })], none)).toBe('\\|`x`\\|\n\n`a`\\|\\|`b`');
    expect(markdown([{ kind: 'note', text: '  3 more' }], none)).toBe('_3 more_');
    expect(markdown([line('   indented')], none)).toBe('indented');
  });

  it('parts fit under the limit whole, the rest counted', () => {
    const out = fitParts(['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)], 160);
    expect(out).toBe(`${'a'.repeat(40)}\n\n${'b'.repeat(40)}\n\n_1 more part left out: GitHub takes at most 160 characters here._`);
    expect(fitParts(['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)], 140)).toBe(
      `${'a'.repeat(40)}\n\n_2 more parts left out: GitHub takes at most 140 characters here._`,
    );
    expect(fitParts(['a', 'b'], 160)).toBe('a\n\nb');
    expect(fitParts(['a'.repeat(40), 'b'.repeat(40)], 160)).toBe(`${'a'.repeat(40)}\n\n${'b'.repeat(40)}`);
    expect(fitParts(['a'.repeat(150)], 160)).toBe('\n\n_1 more part left out: GitHub takes at most 160 characters here._');
    // Exactly at the limit, with room for the note: kept.
    const room = 160 - '\n\n_1 more part left out: GitHub takes at most 160 characters here._'.length;
    expect(fitParts(['a'.repeat(room)], 160)).toBe('a'.repeat(room));
    expect(fitParts(['a'.repeat(room + 1)], 160)).toMatch(/^\n\n_1 more part/);
    expect(markdown([line('x'.repeat(900)), line('y'.repeat(900))], none).length).toBe(1802);
    expect(OUTPUT_LIMIT).toBe(65_535);
  });

  it('a plain line: secrets out, one line, cut', () => {
    const scrub = (t: string): string => t.replaceAll('s3cr3t', '***');
    expect(plainLine('a s3cr3t\nb', scrub)).toBe('a *** ⏎ b');
    expect(plainLine('t'.repeat(TITLE_LIMIT + 3), none)).toBe(`${'t'.repeat(TITLE_LIMIT)}… (3 more characters)`);
  });
});

const secrets = (...values: string[]): Secrets => {
  const s = new Secrets(() => undefined);
  for (const v of values) s.add(v);
  return s;
};

/** A body of every kind of text, each holding `text`. */
function everyField(text: string): Parameters<typeof updateBody>[0] {
  const shown: CheckView = {
    status: 'completed',
    conclusion: 'failure',
    title: `Build #1 ${text}`,
    summary: [
      line({ strong: text }, ' ', { code: text }, text),
      { kind: 'note', text },
      { kind: 'table', title: text, headers: [text], rows: [[text, [{ code: text }, text]]] },
    ],
    text: [{ kind: 'lines', title: text, lines: [text, `x${text}y`] }],
    key: 'k',
  };
  const annotation = { path: 'src/a.c', start_line: 1, end_line: 1, annotation_level: 'failure', message: text, title: text };
  return {
    shown,
    notes: { annotations: [annotation], said: '2 compiler messages, 1 annotated.' },
    size: 0,
    details: `https://devops.example/${text}`,
  };
}

/** Every form a reader or a scraper could see of a body: its JSON, and each Markdown field rendered. */
const forms = (body: Record<string, unknown>): string[] => {
  const out = body.output as { summary: string; text?: string };
  return [JSON.stringify(body), seen(out.summary), seen(out.text ?? ''), JSON.stringify(body).replace(/\\\\(.)/g, '$1')];
};

describe('no secret reaches GitHub', () => {
  /** A secret with characters the escaper touches, so escaping first would hide it from the scrub. */
  const secretChars = fc.string({ unit: fc.constantFrom(...'aZ09-_.*`[]()#@!|~:/+='.split('')), minLength: 6, maxLength: 24 });

  it('property: a secret anywhere in any text, split by Markdown-special characters or not, arrives in no field, in no form', () => {
    fc.assert(
      fc.property(secretChars, fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), (secret, before, after) => {
        fc.pre(!secret.includes('*') && secret.trim() === secret);
        const s = secrets(secret);
        const body = updateBody(everyField(`${before}${secret}${after}`), (t) => s.redact(t));
        for (const form of forms(body)) expect(form).not.toContain(secret);
      }),
    );
  });

  it('each field: title, summary, text, annotations (message and every text), details_url', () => {
    const s = secrets('tok-en.secret_1');
    const body = updateBody(everyField('say tok-en.secret_1 now'), (t) => s.redact(t));
    const out = body.output as Record<string, unknown>;
    expect(out.title).toBe('Build #1 say *** now');
    expect(JSON.stringify(body)).not.toMatch(/tok-en|secret_1/);
    expect(out.annotations).toEqual([
      { path: 'src/a.c', start_line: 1, end_line: 1, annotation_level: 'failure', message: 'say *** now', title: 'say *** now' },
    ]);
    // A link with a secret taken out leads nowhere: left out.
    expect(body.details_url).toBeUndefined();
  });

  it('an annotation whose path held a secret is left out; its message is cut to the limit, its other texts whole', () => {
    const s = secrets('s3cr3t-path');
    const b = everyField('m'.repeat(MESSAGE_LIMIT + 10));
    const notes = { annotations: [{ path: 's3cr3t-path/a.c', message: 'x' }, ...(b.notes?.annotations ?? [])] };
    const out = updateBody({ ...b, notes }, (t) => s.redact(t)).output as { annotations: { message: string; title: string }[] };
    expect(out.annotations).toHaveLength(1);
    expect(out.annotations[0]?.message).toBe(`${'m'.repeat(MESSAGE_LIMIT)}… (10 more characters)`);
    expect(out.annotations[0]?.title).toBe('m'.repeat(MESSAGE_LIMIT + 10));
  });
});

describe('the body', () => {
  const b = everyField('x');
  it.each([
    [0, 1, 'y', /^2 compiler messages, 1 annotated\.$/m],
    [1, 0, 'y', /2 compiler messages, 1 annotated\. GitHub refused them as annotations: none is on the diff\./],
    [2, 0, undefined, undefined],
  ] as const)('size %i: %i annotations, text %s', (size, annotations, text, note) => {
    const body = updateBody({ ...b, size }, none);
    const out = body.output as { annotations?: unknown[]; text?: string; summary: string };
    expect(out.annotations?.length ?? 0).toBe(annotations);
    expect(out.text === undefined ? undefined : 'y').toBe(text);
    if (note !== undefined) expect(seen(out.text ?? '')).toMatch(note);
    if (size === 2) expect(out.summary).toBe('**x** `x`x');
    else expect(out.summary).toMatch(/^\*\*x\*\* `x`x\n\n_x_\n\n### x\n\n\| x \|/);
    expect(body).toMatchObject({ status: 'completed', conclusion: 'failure', details_url: 'https://devops.example/x' });
  });

  it('a size-1 body after an update whose answer was lost says the annotations may be there, not that GitHub refused them', () => {
    const out = updateBody({ ...b, size: 1, annotationsOff: 'maybe-sent' }, none).output as { text: string; annotations?: unknown };
    expect(out.annotations).toBeUndefined();
    expect(seen(out.text)).toMatch(
      /^2 compiler messages, 1 annotated\. An update carrying them got no answer: .* may or may not be on the diff\.$/m,
    );
    expect(seen(out.text)).not.toMatch(/refused/);
  });

  it('without annotations to refuse, a size-1 body says nothing of a refusal', () => {
    for (const notes of [undefined, { annotations: [], said: '2 compiler messages, none on files of the checkout.' }]) {
      const out = updateBody({ ...b, notes, size: 1 }, none).output as { text: string };
      expect(seen(out.text)).not.toMatch(/refused/);
    }
  });

  it('details_url only for an http(s) URL; no conclusion while in progress', () => {
    const shown: CheckView = { status: 'in_progress', title: 't', summary: [], text: [], key: 'k' };
    for (const details of ['', 'javascript:alert(1)', 'ftp://h/x', 'https://h/a b', 'see https://h/x', undefined])
      expect(updateBody({ shown, size: 0, details }, none)).toStrictEqual({ status: 'in_progress', output: { title: 't', summary: '' } });
    expect(updateBody({ shown, size: 0, details: 'http://h/x' }, none)).toMatchObject({ details_url: 'http://h/x' });
  });
});
