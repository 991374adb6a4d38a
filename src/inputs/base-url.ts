// A base-url copied from the wrong place: a console page's address, or one that already holds the
// `/ms/…` prefix the action adds itself. Both make every path 404, which bk-ci would otherwise
// answer as if the project or pipeline did not exist.

/** The problem with base-url's path, said with the address to give instead; undefined when it may be right. */
export function baseUrlPathProblem(origin: string, pathname: string): string | undefined {
  const ms = /(^|\/)ms(\/.*)?$/.exec(pathname);
  if (ms !== null) {
    const root = `${origin}${pathname.slice(0, ms.index)}`;
    return `base-url ends in ${pathname.slice(ms.index)}, but the action adds /ms/… itself (bk-ci's calls go to /ms/openapi/… and /ms/auth/…): give bk-ci's address without it, here ${root}`;
  }
  if (/^\/console(\/|$)/.test(pathname))
    return `base-url is a page of bk-ci's console (${pathname}), not its address: give the address up to the host, here ${origin}`;
  return undefined;
}
