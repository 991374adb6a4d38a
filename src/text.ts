/**
 * Server text on its way to the log: one line, no way to start a workflow command.
 * The runner reads `::cmd::` only at the start of a line, so line breaks become a visible
 * `⏎` and a leading `::` is broken up.
 */
export function plain(text: string, max = 2000): string {
  let t = text.replace(/\r\n|\r|\n|\u2028|\u2029/g, ' ⏎ ');
  if (t.length > max) t = `${t.slice(0, max)}… (${t.length - max} more characters)`;
  // A zero-width space between the colons: not white space to the runner, invisible to people.
  return t.replace(/^(\s*):(?=:)/, '$1:\u200b');
}

/** Markdown and HTML neutralised, for text put into the job summary. */
export function escapeMarkdown(text: string): string {
  return plain(text, 4000)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}

/** A short readable excerpt of an HTML or text error page. */
export function excerpt(body: string, max = 300): string {
  const t = body
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}
