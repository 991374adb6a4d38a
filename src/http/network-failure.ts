// What a request that got no answer says: whether it can have reached the server (a connection
// never made cannot have sent it), whether a retry can mend it (a certificate the runner cannot
// verify, a header Node refused to send, https aimed at a plain-http port cannot), and its causes
// in words. For every request of the step: bk-ci's calls and the build's files alike.
import { NetworkError } from '../base/errors.ts';
import { cut } from '../base/text.ts';

/** Codes that mean the connection was never made, so the request cannot have been sent. */
const BEFORE_SEND = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Certificate problems: retrying cannot help, and the fix is on the runner's side. */
const CERTIFICATE =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_\w+|ERR_TLS_CERT_ALTNAME_INVALID)$/;
/** A request Node refused to build (a header value it cannot carry): never sent, and no retry mends it. */
const UNSENDABLE = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_HTTP_INVALID_HEADER_VALUE', 'ERR_INVALID_URL']);
/** A certificate the runner cannot verify: no retry mends it. */
export const isCertificateCode = (code: string | undefined): boolean => code !== undefined && CERTIFICATE.test(code);
export const CERTIFICATE_HINT =
  'If the gateway uses a certificate from a private CA, give the step the environment variable NODE_EXTRA_CA_CERTS with the path of the CA certificate (PEM).';

/**
 * The NetworkError of a request that failed on its way (no HTTP answer): its causes in words
 * (scrubbed, then cut), whether it was sent, whether any retry can mend it.
 */
export function networkError(
  cause: unknown,
  req: { method: string; url: string; shownUrl: string },
  scrub: (text: string) => string,
): NetworkError {
  const code = errorCode(cause);
  let detail = cut(scrub(describeCause(cause)), 2000).replace(
    /; if the root CA is installed locally, try running Node\.js with --use-system-ca$/,
    '',
  );
  if (isCertificateCode(code)) detail = `${detail}. ${CERTIFICATE_HINT}`;
  const plain = plainHttpAnswer(req.url, code, detail);
  if (plain !== undefined) detail = plain;
  return new NetworkError({
    method: req.method,
    url: req.shownUrl,
    beforeSend: plain !== undefined || (code !== undefined && (BEFORE_SEND.has(code) || UNSENDABLE.has(code))),
    permanent: plain !== undefined || (code !== undefined && (CERTIFICATE.test(code) || UNSENDABLE.has(code))),
    detail,
    cause,
    ...(code === undefined ? {} : { code }),
  });
}

/**
 * OpenSSL's reading of a plain-http answer to its TLS hello (`wrong version number`, `packet
 * length too long`, `http request`): an https base-url aimed at a server that speaks http on that
 * port. No retry mends it and OpenSSL's own text says nothing a reader can act on; one line does.
 */
function plainHttpAnswer(url: string, code: string | undefined, detail: string): string | undefined {
  if (!url.startsWith('https:') || (code !== 'EPROTO' && code !== 'ERR_SSL_WRONG_VERSION_NUMBER')) return undefined;
  if (!/wrong version number|packet length too long|http request/i.test(detail)) return undefined;
  const { host } = new URL(url);
  return `base-url uses https, but ${host} answered in plain http (TLS said "wrong version number"): the server there speaks http, not https. Give base-url with http:// for it (allow-insecure-http: true beyond this machine), or the port where it serves https`;
}

/** The first `code` in the error's chain of causes (Node's `ECONNRESET`, a TLS code). */
export function errorCode(error: unknown): string | undefined {
  for (let link: unknown = error, depth = 0; link instanceof Error && depth < 4; link = link.cause, depth++) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The error and its causes in words, each once. */
export function describeCause(error: unknown): string {
  const parts: string[] = [];
  for (let link: unknown = error, depth = 0; link instanceof Error && depth < 4; link = link.cause, depth++) {
    // fetch wraps every failure in "fetch failed"; the causes say what happened.
    if (link.message && link.message !== 'fetch failed' && !parts.includes(link.message)) parts.push(link.message);
  }
  return parts.join(': ') || String(error);
}
