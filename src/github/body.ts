// The body of every write to the check run: what it shows (view.ts) rendered for GitHub, each text
// scrubbed of the step's secrets before it is escaped or cut (text.ts). Built in one of three
// sizes: whole; without the annotations (what GitHub refused is left out, so the conclusion still
// lands); and the conclusion with its title and first line only.
import { cut } from '../base/text.ts';
import { MESSAGE_LIMIT, markdown, type Part, plainLine, type Scrub } from './text.ts';
import type { CheckView } from './view.ts';

/** Compiler messages as annotations, and the sentence that counts them (annotations.ts). */
interface Notes {
  annotations: readonly object[];
  said?: string | undefined;
}

/** How much of the check a body carries: 0 all of it, 1 without annotations, 2 the conclusion, title and first line. */
export type Size = 0 | 1 | 2;
export const SMALLEST: Size = 2;

/** What a write sends besides what the check shows. */
export interface BodyOf {
  shown: CheckView;
  notes?: Notes | undefined;
  size: Size;
  /** The build's page, when known. */
  details?: string | undefined;
  /** Why a body of size 1 leaves the annotations out: GitHub refused them (the default), or they may be there already. */
  annotationsOff?: AnnotationsOff | undefined;
}

export type AnnotationsOff = 'refused' | 'maybe-sent';

/** What the check's text and the summary say when the annotations were left out of the last update. */
export const OFF_WORDS: Record<AnnotationsOff, string> = {
  refused: 'GitHub refused them as annotations: none is on the diff.',
  'maybe-sent': 'An update carrying them got no answer: they were not sent again, and may or may not be on the diff.',
};

/** An annotation with every text in it scrubbed; undefined when its path held a secret (it would name no file). */
function scrubbed(value: object, scrub: Scrub): object | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value))
    out[key] = typeof field === 'string' ? (key === 'message' ? cut(scrub(field), MESSAGE_LIMIT) : scrub(field)) : field;
  return 'path' in value && out.path !== value.path ? undefined : out;
}

/** The text: the failed steps and their lines, and the compiler messages counted (annotations.ts), or said to be off the diff. */
function textParts(body: BodyOf): Part[] {
  const { shown, notes, size } = body;
  if (size === 2) return [];
  const off = size === 1 && notes !== undefined && notes.annotations.length > 0;
  const said = notes?.said === undefined ? '' : `${notes.said}${off ? ` ${OFF_WORDS[body.annotationsOff ?? 'refused']}` : ''}`;
  return [...shown.text, ...(said === '' ? [] : [{ kind: 'note' as const, text: said }])];
}

/** A URL for details_url: http(s) only, and only as it is (a link with a secret taken out would lead nowhere). */
const detailsOf = (url = '', scrub: Scrub): string | undefined => (/^https?:\/\/\S+$/.test(url) && scrub(url) === url ? url : undefined);

/** What an update sends (a create adds the name, commit and build id). */
export function updateBody(body: BodyOf, scrub: Scrub): Record<string, unknown> {
  const { shown, notes, size } = body;
  const text = markdown(textParts(body), scrub);
  const annotations = size === 0 ? (notes?.annotations ?? []).flatMap((a) => scrubbed(a, scrub) ?? []) : [];
  const details = detailsOf(body.details, scrub);
  return {
    status: shown.status,
    ...(shown.conclusion === undefined ? {} : { conclusion: shown.conclusion }),
    ...(details === undefined ? {} : { details_url: details }),
    output: {
      title: plainLine(shown.title, scrub),
      summary: markdown(size === 2 ? shown.summary.slice(0, 1) : shown.summary, scrub),
      ...(text === '' ? {} : { text }),
      ...(annotations.length === 0 ? {} : { annotations }),
    },
  };
}
