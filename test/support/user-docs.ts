// The pages a user of the action reads: README.md and every Markdown page under docs/. The tests
// of examples and links read them from here, so a page added under docs/ is checked with the rest.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './dist-runner.ts';

export interface Page {
  /** Relative to the repository's root, with `/`. */
  path: string;
  text: string;
}

export interface YamlBlock {
  page: string;
  /** The last heading above the block, or the page's path when there is none. */
  heading: string;
  text: string;
}

/** README.md first, then docs/**.md in a stable order. */
export async function userPages(): Promise<Page[]> {
  const docs = (await readdir(join(ROOT, 'docs'), { recursive: true }))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f.split('\\').join('/')}`)
    .sort();
  return Promise.all(['README.md', ...docs].map(async (path) => ({ path, text: await readFile(join(ROOT, path), 'utf8') })));
}

/** Every ```yaml block of the pages, in order, under its heading. */
export function yamlBlocks(pages: Page[]): YamlBlock[] {
  return pages.flatMap((page) =>
    [...page.text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => ({
      page: page.path,
      heading: [...page.text.slice(0, m.index).matchAll(/^#+ (.*)$/gm)].at(-1)?.[1] ?? page.path,
      text: m[1] ?? '',
    })),
  );
}
