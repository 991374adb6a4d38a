// The query parameters of bk-ci's URLs that hold secrets, out of any URL a message may show.

const SECRET_PARAMS = new Set(['access_token', 'secrettoken']);

/** The URL with the values of `access_token` and `secretToken` replaced; nothing else changes. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const hash = url.indexOf('#', queryAt);
  const query = url.slice(queryAt + 1, hash === -1 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is kept as it is
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=***` : pair;
    })
    .join('&');
  return `${url.slice(0, queryAt)}?${redacted}`;
}
