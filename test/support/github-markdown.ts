// How a check run's Markdown reads once rendered (GitHub-flavoured, by marked): its elements, the
// text a reader sees and copies, and the text outside code, where GitHub makes mentions,
// references, hash links and emoji of plain text.
import { marked } from 'marked';

/** The Markdown as HTML. */
const html = (md: string): string => marked.parse(md, { gfm: true, async: false });

const decode = (t: string): string =>
  t
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');

/** What a reader sees: the text of every element, entities decoded. */
export const seen = (md: string): string => decode(html(md).replace(/<[^>]*>/g, ''));

/** The text GitHub's filters read: everything but code spans and code blocks. */
export const outsideCode = (md: string): string =>
  decode(
    html(md)
      .replace(/<(code|pre)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]*>/g, ''),
  );

/** The HTML elements the Markdown makes, by name. */
export const elements = (md: string): string[] => [...html(md).matchAll(/<([a-z][a-z0-9]*)\b/g)].map((m) => m[1] ?? '');
