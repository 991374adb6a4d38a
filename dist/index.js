import { Agent as Agent$1, request as request$2 } from 'node:http';
import { Agent, request as request$1 } from 'node:https';
import { pipeline } from 'node:stream';
import { createUnzip, createBrotliDecompress, createGunzip } from 'node:zlib';
import { parseExact, exactInteger } from './json.js';
import { randomUUID } from 'node:crypto';
import { open as open$1 } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as os from 'os';
import os__default, { EOL } from 'os';
import * as crypto from 'crypto';
import * as fs from 'fs';
import { promises, constants } from 'fs';
import 'path';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/**
 * `90` (seconds), `90s`, `500ms`, `5m`, `1h`, `1h30m`. Returns milliseconds, or undefined
 * for anything else (negative numbers, fractions with units, unknown units, empty text).
 */
function parseDuration(text) {
    const t = text.trim();
    if (/^\d+$/.test(t))
        return Number(t) * 1000;
    if (t === '' || !/^(\d+(ms|s|m|h))+$/.test(t))
        return undefined;
    let total = 0;
    let lastRank = -1;
    const ranks = ['h', 'm', 's', 'ms'];
    for (const [, n, unit] of t.matchAll(/(\d+)(ms|s|m|h)/g)) {
        const rank = ranks.indexOf(unit ?? '');
        // Units must come largest first and once each: `30m1h` is more likely a typo than intent.
        if (rank <= lastRank)
            return undefined;
        lastRank = rank;
        total += Number(n) * (UNIT_MS[unit ?? ''] ?? 0);
    }
    return Number.isSafeInteger(total) ? total : undefined;
}
/** `1h2m3s`, `1m12s`, `4.5s`, `250ms`: short, exact enough for a log line. */
function formatDuration(ms) {
    if (ms < 1000)
        return `${Math.max(0, Math.round(ms))}ms`;
    if (ms < 10_000)
        return `${(Math.round(ms / 100) / 10).toString()}s`;
    let s = Math.round(ms / 1000);
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`;
}
/** `1 poll`, `3 polls`. */
const countOf = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
/** Seconds for an output: whole from 10 s on, to the millisecond below, so a short wait is not "0". */
const seconds = (ms) => String(ms >= 10_000 ? Math.round(ms / 1000) : Math.max(0, Math.round(ms)) / 1000);
/** The largest instant a JavaScript Date holds, in ms (year 275760). */
const MAX_DATE_MS = 8.64e15;
/** `2026-11-22 09:30:00 UTC`; a value no date can hold is shown as the server wrote it, never thrown at. */
function utcTime(ms, written = String(ms)) {
    if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS)
        return `${written} (not a valid time)`;
    return new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
}

/** The base of every failure the action raises on purpose; `status` is the HTTP status when there was an answer. */
class ActionError extends Error {
    name = 'ActionError';
    status;
    constructor(message, options = {}) {
        super(message, options);
        this.status = options.status;
    }
}
/** What every failure of a request carries: the method, the URL with secrets redacted. */
class RequestError extends ActionError {
    method;
    url;
    constructor(message, init) {
        super(message, { status: init.status, cause: init.cause });
        this.method = init.method;
        this.url = init.url;
    }
}
/** The server said the call failed, in its own words and with its own code. */
class ServerSaidError extends RequestError {
    serverMessage;
    /** The body's own code (bk-ci's `status`/`code`, the gateway's `code`), when it had one. */
    serverStatus;
    constructor(message, init) {
        super(message, init);
        this.serverMessage = init.serverMessage;
        this.serverStatus = init.serverStatus;
    }
}
/** The server answered with HTTP 4xx/5xx. `serverMessage` is readable text, never a raw HTML page. */
class HttpError extends ServerSaidError {
    name = 'HttpError';
    retryAfter;
    constructor(init) {
        super(`${init.method} ${init.url} answered HTTP ${init.status}${init.serverMessage ? `: ${init.serverMessage}` : ''}`, init);
        this.retryAfter = init.retryAfter;
    }
}
/** HTTP 2xx, but bk-ci's wrapper (`status`, or `code` on project calls) says the call failed. */
class WrapperStatusError extends ServerSaidError {
    name = 'WrapperStatusError';
    constructor(init) {
        super(`${init.method} ${init.url} answered HTTP ${init.status} with error status ${init.serverStatus}${init.serverMessage ? `: ${init.serverMessage}` : ''}`, init);
    }
}
/** No HTTP answer: refused, reset, DNS, TLS. `beforeSend` when the request cannot have reached the server. */
class NetworkError extends RequestError {
    name = 'NetworkError';
    code;
    beforeSend;
    constructor(init) {
        super(`${init.method} ${init.url} failed: ${init.detail}`, init);
        this.code = init.code;
        this.beforeSend = init.beforeSend;
    }
}
class RequestTimeoutError extends RequestError {
    name = 'RequestTimeoutError';
    timeoutMs;
    constructor(init) {
        super(`${init.method} ${init.url} got no complete answer within request-timeout (${init.timeoutMs / 1000}s)`, init);
        this.timeoutMs = init.timeoutMs;
    }
}
/** The answer was 2xx but not what the API promises: not JSON, cut short, the wrong shape, no data. */
class ResponseFormatError extends RequestError {
    name = 'ResponseFormatError';
    constructor(init) {
        super(`${init.method} ${init.url} answered HTTP ${init.status} with an unexpected body: ${init.detail}`, init);
    }
}
/** The step's deadline passed before the request could start: it was never sent. */
class DeadlineError extends RequestError {
    name = 'DeadlineError';
    constructor(init) {
        super(`the step's timeout passed before ${init.method} ${init.url.split('?')[0]} could be sent; it was not sent`, init);
    }
}
/** The job was cancelled (SIGINT/SIGTERM) while a request or a wait was under way. */
class CancelledError extends ActionError {
    name = 'CancelledError';
    constructor() {
        super('cancelled');
    }
}
/** One or more inputs are wrong; nothing was sent. */
class InputError extends ActionError {
    name = 'InputError';
    problems;
    constructor(problems) {
        super(problems.length === 1 ? `invalid input: ${problems[0]}` : `invalid inputs:\n- ${problems.join('\n- ')}`);
        this.problems = problems;
    }
}
/** bk-ci or the token endpoint refused the credentials; the message says what to do. */
class AuthError extends ActionError {
    name = 'AuthError';
    problem;
    constructor(message, problem, options) {
        super(message, options);
        this.problem = problem;
    }
}
/** A failure that still has outputs and a summary to show: a FAIL status, a timeout, failed events, a write half done. */
class OperationError extends ActionError {
    name = 'OperationError';
    outcome;
    constructor(message, outcome, options) {
        super(message, { ...options, status: outcome.status });
        this.outcome = outcome;
    }
}
/** bk-ci refused a project write, or the action refused to send one that would lose data. */
class ProjectWriteError extends ActionError {
    name = 'ProjectWriteError';
}
const errorMessage = (e) => (e instanceof Error ? e.message : String(e));
/** The HTTP status a failure carries, if it has one. */
const statusOf = (e) => (e instanceof ActionError ? e.status : undefined);

/**
 * Text on its way to stdout, kept from being taken for a runner command. The runner obeys
 * `::name::` at the start of a line and the older `##[name]` anywhere in one (actions/runner,
 * ActionCommand.TryParseV2 and TryParse). A zero-width space, invisible to people and not white
 * space to the runner, breaks up a leading `::` on every line and every `##[`.
 */
const defuse = (text) => text.replace(/^(\s*):(?=:)/gm, '$1:\u200b').replace(/#(?=#\[)/g, '#\u200b');
/** One line of plain log output: line breaks become a visible `⏎`, then defused. */
const neutralise = (text) => defuse(text.replace(/\r\n|\r|\n|\u2028|\u2029|\u0085/g, ' ⏎ '));
/** At most `max` characters, saying how many more there were. Scrub secrets first: a cut can split one. */
const cut = (text, max) => text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
/** Neutralised, and cut to `max` characters. */
const plain = (text, max = 2000) => neutralise(cut(text, max));
/** Text without the UTF-8 byte order mark some servers put before JSON. */
const stripBom = (text) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
const URL_IN_TEXT = /https?:\/\/[^\s<>"`]+/g;
/** The URL without what usually follows one in a sentence: a full stop, a comma, an unbalanced bracket. */
function urlPart(match) {
    let u = match;
    for (;;) {
        const last = u.at(-1) ?? '';
        const unbalanced = (open, close) => last === close && u.split(open).length < u.split(close).length;
        if (/[.,;:!?']/.test(last) || unbalanced('(', ')') || unbalanced('[', ']'))
            u = u.slice(0, -1);
        else
            return u;
    }
}
const escapeText = (text) => text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
/**
 * A CommonMark autolink: no escaping applies inside `<…>`, so the link's target is the URL
 * itself, not the URL with backslashes. What an autolink or a GFM table cell cannot hold is
 * percent-encoded, which leaves the target the same.
 */
const autolink = (url) => `<${[...url].map((c) => (isControl(c.charCodeAt(0)) || '|\\^{}'.includes(c) ? encodeURIComponent(c) : c)).join('')}>`;
/** C0 controls and DEL: line breaks, tabs, NUL and the like. */
const isControl = (code) => code < 0x20 || code === 0x7f;
/** Whether the text holds white space or a control character anywhere. */
const hasSpaceOrControl = (text) => /\s/.test(text) || [...text].some((c) => isControl(c.charCodeAt(0)));
/** Markdown and HTML neutralised, for text put into the job summary; every URL in it a working link. */
function escapeMarkdown(text) {
    const t = plain(text, 4000);
    let out = '';
    let at = 0;
    for (const m of t.matchAll(URL_IN_TEXT)) {
        const url = urlPart(m[0]);
        if (!/^https?:\/\/./.test(url))
            continue;
        out += escapeText(t.slice(at, m.index)) + autolink(url);
        at = m.index + url.length;
    }
    return out + escapeText(t.slice(at));
}
/** A readable account of an HTML or text error page, collapsed to one paragraph (not cut). */
function collapse(body) {
    return body
        .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
        .replace(/<[^>]*>/g, ' ')
        .replace(/&nbsp;/g, ' ')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
        .replace(/\s+/g, ' ')
        .trim();
}

const DEFAULT_RETRY_POLICY = {
    retries: 3,
    baseDelayMs: 1000,
    maxDelayMs: 30_000,
    maxRetryAfterMs: 60_000,
};
/**
 * GET, PUT and DELETE are safe to repeat; a POST creates something, so it is repeated only when
 * the server said it did not take it (423, 429) or the connection never got as far as sending it.
 */
function isRetryable(method, failure) {
    if (failure.kind === 'network' && failure.permanent)
        return false;
    const throttled = failure.kind === 'status' && (failure.status === 423 || failure.status === 429);
    if (method === 'POST')
        return throttled || (failure.kind === 'network' && failure.beforeSend);
    if (failure.kind === 'status')
        return throttled || failure.status >= 500;
    return true;
}
/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date. Undefined if unreadable. */
function parseRetryAfter(value, now) {
    if (value === undefined)
        return undefined;
    const v = value.trim();
    if (/^\d+$/.test(v))
        return Number(v) * 1000;
    // Only an HTTP date: Date.parse also takes "-3" (the year -3).
    if (!/^[A-Za-z]{3}, /.test(v))
        return undefined;
    const at = Date.parse(v);
    return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
/**
 * The delay before retry number `retry` (1 for the first). A server's Retry-After wins, capped;
 * otherwise full jitter over an exponential ceiling, so that many runners do not retry in step.
 */
function retryDelay(retry, failure, now, random, policy = DEFAULT_RETRY_POLICY) {
    if (failure.kind === 'status') {
        const after = parseRetryAfter(failure.retryAfter, now);
        if (after !== undefined)
            return Math.min(after, policy.maxRetryAfterMs);
    }
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
    return Math.round(random() * ceiling);
}

class BodyTooLargeError extends Error {
    name = 'BodyTooLargeError';
    /** The HTTP status of the answer whose body was refused. */
    status;
    constructor(message, status) {
        super(message);
        this.status = status;
    }
}
/**
 * A transport over a fetch function: Node's own (undici inside Node, nothing to load) or the
 * undici package's with a dispatcher of our own. Redirects are not followed: bk-ci's API does
 * not redirect, and a redirect usually means a login page or a wrong base-url.
 */
function fetchTransport(fetchImpl, dispatcher) {
    return async (req) => {
        const init = { method: req.method, headers: req.headers, signal: req.signal, redirect: 'manual' };
        if (req.body !== undefined)
            init.body = req.body;
        if (dispatcher !== undefined)
            init.dispatcher = dispatcher;
        const res = await fetchImpl(req.url, init);
        let body = '';
        try {
            const declared = declaredLength(res.headers.get('content-length'), req.maxBodyBytes, res.status);
            // fetch has already decoded a compressed body: its Content-Length counts the encoded bytes.
            const exact = identity(res.headers.get('content-encoding')) ? declared : undefined;
            if (res.body)
                body = await readBody(res.body, exact, req.maxBodyBytes, res.status);
        }
        catch (e) {
            if (e instanceof BodyTooLargeError)
                await res.body?.cancel().catch(() => undefined);
            throw e;
        }
        return { status: res.status, headers: Object.fromEntries(res.headers), body };
    };
}
const identity = (encoding) => encoding == null || /^\s*(identity)?\s*$/i.test(encoding);
/** The Content-Length, refused at once when it is over the cap. */
function declaredLength(header, max, status) {
    const declared = header != null && /^\d+$/.test(header) ? Number(header) : undefined;
    if (declared !== undefined && declared > max)
        throw new BodyTooLargeError(`the response body of ${declared} bytes exceeds the limit of ${max} bytes`, status);
    return declared;
}
/**
 * The body as text, at most `max` bytes. With an exact length (no content coding) the chunks are
 * copied into one buffer as they come, rather than kept in a list and joined, which held the
 * body twice.
 */
async function readBody(stream, exact, max, status) {
    const whole = exact === undefined ? undefined : Buffer.allocUnsafe(exact);
    const chunks = [];
    let size = 0;
    for await (const chunk of stream) {
        if (size + chunk.byteLength > (whole?.length ?? max)) {
            throw new BodyTooLargeError(whole ? 'the response body is longer than its Content-Length' : `the response body exceeds the limit of ${max} bytes`, status);
        }
        if (whole)
            whole.set(chunk, size);
        else
            chunks.push(chunk);
        size += chunk.byteLength;
    }
    return (whole ?? Buffer.concat(chunks, size)).toString('utf8', 0, size);
}
/**
 * A transport over node:http and node:https, for requests that need no proxy. Unlike fetch
 * (Node's or the undici package's, which take any `100 Continue` the client did not ask for as a
 * broken response), it reads past every interim 1xx answer, as curl does, and its parser is
 * native rather than WebAssembly, which V8 would recompile in the background at exit. Bodies in
 * gzip, deflate or br are decoded here. One keep-alive connection per origin serves every request
 * of the step, polls included.
 */
function nodeTransport(o) {
    // An idle connection is kept this long: a poll interval for a wait, a moment otherwise.
    const options = { keepAlive: true, maxSockets: 1, timeout: o.keepAliveMs };
    const agents = { 'http:': new Agent$1(options), 'https:': new Agent(options) };
    const transport = (req) => new Promise((resolve, reject) => {
        const url = new URL(req.url);
        const secure = url.protocol === 'https:';
        const send = secure ? request$1 : request$2;
        const headers = { 'accept-encoding': 'gzip, deflate, br', ...req.headers };
        if (req.body !== undefined)
            headers['content-length'] = String(Buffer.byteLength(req.body));
        const r = send(url, { method: req.method, headers, agent: secure ? agents['https:'] : agents['http:'], signal: req.signal }, (res) => {
            const status = res.statusCode ?? 0;
            const resHeaders = {};
            for (const [k, v] of Object.entries(res.headers))
                if (v !== undefined)
                    resHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
            const fail = (e) => {
                res.destroy();
                reject(e);
            };
            try {
                const declared = declaredLength(resHeaders['content-length'], req.maxBodyBytes, status);
                const exact = identity(resHeaders['content-encoding']) ? declared : undefined;
                // The Content-Length framing is node:http's to check; a body cut short ends in an error.
                readBody(decoder(resHeaders['content-encoding'], res), exact, req.maxBodyBytes, status)
                    .then((body) => resolve({ status, headers: resHeaders, body }))
                    .catch(fail);
            }
            catch (e) {
                fail(e);
            }
        });
        r.on('error', reject);
        r.end(req.body);
    });
    return {
        transport,
        close: () => {
            for (const agent of Object.values(agents))
                agent.destroy();
        },
    };
}
/** The decoded body stream for a Content-Encoding; an unknown coding is an error, not garbage. */
function decoder(encoding, res) {
    if (identity(encoding))
        return res;
    const codings = (encoding ?? '')
        .toLowerCase()
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== '' && c !== 'identity');
    let stream = res;
    // Codings are listed in the order they were applied: undone last first.
    for (const coding of codings.reverse()) {
        const step = DECODERS[coding];
        if (step === undefined)
            throw new Error(`the response uses the content coding "${coding}", which this action cannot decode`);
        stream = pipeline(stream, step(), () => undefined);
    }
    return stream;
}
const DECODERS = {
    gzip: () => createGunzip(),
    'x-gzip': () => createGunzip(),
    br: () => createBrotliDecompress(),
    // zlib-wrapped deflate, as HTTP defines it (unzip also takes a gzip stream sent as deflate).
    deflate: () => createUnzip(),
};
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
/** Whether requests must go through a proxy, which node:http does not do on its own. */
const proxyConfigured = (env) => PROXY_VARIABLES.some((v) => (env[v] ?? '') !== '');
/**
 * What is wrong with the proxy variables, if anything, in words that name the variable. A proxy
 * without a scheme (`proxy:3128`) parses as a URL of the scheme "proxy:", and the proxy agent
 * would fail deep inside with "Invalid URL".
 */
function proxyProblem(env) {
    for (const name of PROXY_VARIABLES) {
        const value = env[name] ?? '';
        if (value === '')
            continue;
        let ok = false;
        try {
            const u = new URL(value);
            ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
        }
        catch {
            // not a URL at all
        }
        if (!ok) {
            const shown = value.replace(/\/\/[^/@]*@/, '//***@').replace(/^[^/@]*@/, '***@');
            return `the environment variable ${name} is "${shown}", which is not a proxy URL: write it with its scheme, e.g. http://${shown.replace(/^[a-z]+:\/\//i, '')}`;
        }
    }
    return undefined;
}
/**
 * The undici package, loaded only behind a proxy from the environment (HTTPS_PROXY, HTTP_PROXY,
 * NO_PROXY). Its agent keeps one connection per origin alive a minute (or as long as the
 * server's Keep-Alive header says), since the action's requests are sequential.
 */
async function proxyTransport() {
    const { EnvHttpProxyAgent, fetch } = await import('./undici.js').then(function (n) { return n.i; });
    const agent = new EnvHttpProxyAgent({ connections: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 600_000 });
    return { transport: fetchTransport(fetch, agent), close: () => agent.destroy() };
}

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
const CERTIFICATE = /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_\w+|ERR_TLS_CERT_ALTNAME_INVALID)$/;
const CERTIFICATE_HINT = 'If the gateway uses a certificate from a private CA, give the step the environment variable NODE_EXTRA_CA_CERTS with the path of the CA certificate (PEM).';
/**
 * Timers fire a little late: a poll scheduled for the deadline itself still goes out. Past this,
 * no request starts, so a step overruns its timeout by at most one request-timeout.
 */
const START_SLACK_MS = 250;
/** HTTP with per-attempt timeouts, the retry policy, cancellation, and failures turned into typed errors. */
class HttpCaller {
    #o;
    constructor(options) {
        this.#o = options;
    }
    /** Secrets out of server text, for the layers above that read bodies. */
    scrub(text) {
        return this.#o.scrub(text);
    }
    async call(req) {
        const { clock, log, retry } = this.#o;
        const shown = req.shownUrl;
        for (let attempt = 0;; attempt++) {
            if (req.deadline !== undefined && clock.now() > req.deadline + START_SLACK_MS)
                throw new DeadlineError({ method: req.method, url: shown });
            let error;
            let failure;
            try {
                const res = await this.#attempt(req, shown);
                if (res.status >= 200 && res.status < 300)
                    return res;
                const { message, serverStatus } = this.#o.readError(res, this.#o.scrub);
                const retryAfter = res.headers['retry-after'];
                error = new HttpError({
                    method: req.method,
                    url: shown,
                    status: res.status,
                    serverMessage: message,
                    ...(serverStatus === undefined ? {} : { serverStatus }),
                    ...(retryAfter === undefined ? {} : { retryAfter }),
                });
                failure = { kind: 'status', status: res.status, retryAfter };
            }
            catch (e) {
                if (e instanceof NetworkError)
                    failure = { kind: 'network', beforeSend: e.beforeSend, permanent: e.code !== undefined && CERTIFICATE.test(e.code) };
                else if (e instanceof RequestTimeoutError)
                    failure = { kind: 'timeout' };
                else
                    throw e;
                error = e;
            }
            if (attempt >= retry.retries || req.detached !== undefined || !isRetryable(req.method, failure))
                throw error;
            const delay = retryDelay(attempt + 1, failure, clock.now(), this.#o.random, retry);
            if (req.deadline !== undefined && clock.now() + delay > req.deadline)
                throw error;
            const reason = error instanceof HttpError
                ? `HTTP ${error.status}`
                : error instanceof RequestTimeoutError
                    ? 'no answer within request-timeout'
                    : `network error (${error.code ?? 'unknown'})`;
            log.info(`${req.method} ${stripQuery(shown)}: ${reason}; retry ${attempt + 1} of ${retry.retries} in ${formatDuration(delay)}`);
            await clock.sleep(delay, this.#o.signal).catch(() => {
                throw new CancelledError();
            });
        }
    }
    async #attempt(req, shown) {
        const signal = req.detached === undefined ? this.#o.signal : new AbortController().signal;
        const requestTimeoutMs = req.detached?.timeoutMs ?? this.#o.requestTimeoutMs;
        if (signal.aborted)
            throw new CancelledError();
        const timeout = AbortSignal.timeout(requestTimeoutMs);
        const headers = { 'user-agent': this.#o.userAgent, ...req.headers };
        this.#o.log.debug(`${req.method} ${shown}`);
        try {
            return await this.#o.transport({
                method: req.method,
                url: req.url,
                headers,
                ...(req.body === undefined ? {} : { body: req.body }),
                signal: AbortSignal.any([signal, timeout]),
                maxBodyBytes: this.#o.maxBodyBytes,
            });
        }
        catch (e) {
            if (signal.aborted)
                throw new CancelledError();
            if (timeout.aborted)
                throw new RequestTimeoutError({ method: req.method, url: shown, timeoutMs: requestTimeoutMs, cause: e });
            if (e instanceof BodyTooLargeError)
                throw new ResponseFormatError({ method: req.method, url: shown, status: e.status, detail: e.message, cause: e });
            const code = errorCode(e);
            let detail = cut(this.#o.scrub(describeCause(e)), 2000).replace(/; if the root CA is installed locally, try running Node\.js with --use-system-ca$/, '');
            if (code !== undefined && CERTIFICATE.test(code))
                detail = `${detail}. ${CERTIFICATE_HINT}`;
            throw new NetworkError({
                method: req.method,
                url: shown,
                beforeSend: code !== undefined && BEFORE_SEND.has(code),
                detail,
                cause: e,
                ...(code === undefined ? {} : { code }),
            });
        }
    }
}
function errorCode(e) {
    for (let x = e, depth = 0; x instanceof Error && depth < 4; x = x.cause, depth++) {
        const code = x.code;
        if (typeof code === 'string')
            return code;
    }
    return undefined;
}
function describeCause(e) {
    const parts = [];
    for (let x = e, depth = 0; x instanceof Error && depth < 4; x = x.cause, depth++) {
        // fetch wraps every failure in "fetch failed"; the causes say what happened.
        if (x.message && x.message !== 'fetch failed' && !parts.includes(x.message))
            parts.push(x.message);
    }
    return parts.join(': ') || String(e);
}
const stripQuery = (url) => url.split('?')[0] ?? url;

const GATEWAYS = ['bk-ci', 'bk-apigateway'];
/** An endpoint both gateways publish at the same path (the gateway puts its API type after the version). */
const onBoth = (method, path) => ({ method, path: { 'bk-ci': path, 'bk-apigateway': path } });
/** A path parameter as exactly one segment: `/`, `?`, `#` and `%` cannot change the route. */
function pathSegment(value) {
    if (value === '' || value === '.' || value === '..')
        throw new Error(`"${value}" cannot be a path segment`);
    return encodeURIComponent(value);
}
/**
 * The endpoint's path on the gateway, every parameter encoded; undefined where the gateway does
 * not publish it. bk-ci's own gateway: `/ms/openapi/api/apigw/v4/projects/…`; the BlueKing API
 * Gateway swaps version and type: `/v4/apigw-app/projects/…`.
 */
function resolvePath(endpoint, gateway, params = {}, type = 'apigw-user') {
    const template = endpoint.path[gateway];
    if (template === null)
        return undefined;
    const segments = template
        .replace(/^\//, '')
        .split('/')
        .flatMap((part) => {
        const m = /^\{(\.\.\.)?(\w+)\}$/.exec(part);
        if (m === null)
            return [part];
        const value = params[m[2] ?? ''];
        if (value === undefined)
            throw new Error(`no value for the path parameter ${part}`);
        return (typeof value === 'string' ? [value] : [...value]).map(pathSegment);
    });
    if (template.startsWith('/'))
        return `/${segments.join('/')}`;
    if (gateway === 'bk-ci')
        return `/ms/openapi/api/apigw/${segments.join('/')}`;
    const [version, ...rest] = segments;
    return `/${[version, type, ...rest].join('/')}`;
}

function getEnumValues(entries) {
    const numericValues = Object.values(entries).filter((v) => typeof v === "number");
    const values = Object.entries(entries)
        .filter(([k, _]) => numericValues.indexOf(+k) === -1)
        .map(([_, v]) => v);
    return values;
}
function joinValues(array, separator = "|") {
    return array.map((val) => stringifyPrimitive(val)).join(separator);
}
function jsonStringifyReplacer(_, value) {
    if (typeof value === "bigint")
        return value.toString();
    return value;
}
// the accessor lives on a shared prototype: an own accessor makes every box a dictionary-mode object (~360 B and a slow load per read against ~100 B and an inlined getter here)
class Cached {
    constructor(getter) {
        this._getter = getter;
        this._value = undefined;
    }
    get value() {
        const getter = this._getter;
        if (getter !== undefined) {
            this._value = getter();
            this._getter = undefined;
        }
        return this._value;
    }
}
function cached(getter) {
    return new Cached(getter);
}
function nullish(input) {
    return input === null || input === undefined;
}
function cleanRegex(source) {
    const start = source.startsWith("^") ? 1 : 0;
    const end = source.endsWith("$") ? source.length - 1 : source.length;
    return source.slice(start, end);
}
function floatSafeRemainder(val, step) {
    const ratio = val / step;
    const roundedRatio = Math.round(ratio);
    // `val` and `step` each round to a double before the division rounds again, so a true decimal multiple's quotient can sit up to 1.5 of these scaled epsilons from the integer. A 1x tolerance therefore rejected 2.03 as a multiple of 0.07; 4x covers the worst case with margin.
    const tolerance = 4 * Number.EPSILON * Math.max(Math.abs(ratio), 1);
    if (Math.abs(ratio - roundedRatio) < tolerance)
        return 0;
    return ratio - roundedRatio;
}
function assignProp(target, prop, value) {
    Object.defineProperty(target, prop, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
    });
}
/**
 * Whichever object a def's `shape` currently answers from: the one the caller passed until the first read, the frozen copy after it.
 *
 * Its keys and descriptors read without invoking anything, which is what lets a discriminated union check its discriminator, and the cycle walk read a shape, without resolving a getter that references the schema being constructed. A def that answers `shape` from an accessor of its own has none.
 */
function rawShape(def) {
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    return desc?.get ? desc.get.raw : desc?.value;
}
// where a builder reads its source's keys and descriptors, resolving only a shape a def answers for itself. A shape resolves by object spread, so only its enumerable keys are ever part of it.
function sourceShape(schema) {
    return rawShape(schema._zod.def) ?? schema._zod.def.shape;
}
// a key whose value is not settled yet, self-caching so every read after the first gets the same one
function deferProp(target, key, getter) {
    Object.defineProperty(target, key, {
        get() {
            const value = getter();
            assignProp(this, key, value);
            return value;
        },
        enumerable: true,
        configurable: true,
    });
}
// Writes a settled key. A plain assignment is much cheaper than `defineProperty` and produces the same descriptor, but it runs whatever setter already answers to the key — an accessor this shape deferred, or an inherited one, which `__proto__` has on every object and prototype pollution can add for any name.
function putProp(target, key, value) {
    if (key in target)
        assignProp(target, key, value);
    else
        target[key] = value;
}
/**
 * Copies `keys` of `source`'s shape onto `target`, each value passed through `wrap`.
 *
 * A key the source has resolved is copied through now, so the derived shape states it outright and nothing has to resolve it to learn what it holds. A key the source still defers stays deferred, and reads back through the source's own `shape`, so it resolves once and both shapes get that one schema.
 */
function mirrorShape(target, source, keys, wrap) {
    const raw = sourceShape(source);
    for (const key of keys) {
        const desc = Object.getOwnPropertyDescriptor(raw, key);
        if (!desc.enumerable)
            continue;
        if (desc.get) {
            deferProp(target, key, () => {
                const value = source._zod.def.shape[key];
                return wrap ? wrap(value, key) : value;
            });
        }
        else
            putProp(target, key, wrap ? wrap(desc.value, key) : desc.value);
    }
}
// same, for a plain shape a caller passed rather than a schema's
function mirrorProps(target, source) {
    for (const key of Reflect.ownKeys(source)) {
        const desc = Object.getOwnPropertyDescriptor(source, key);
        if (!desc.enumerable)
            continue;
        if (desc.get)
            deferProp(target, key, () => source[key]);
        else
            putProp(target, key, desc.value);
    }
}
function mergeDefs(...defs) {
    const mergedDescriptors = {};
    for (const def of defs) {
        const descriptors = Object.getOwnPropertyDescriptors(def);
        Object.assign(mergedDescriptors, descriptors);
    }
    return Object.defineProperties({}, mergedDescriptors);
}
function esc(str) {
    return JSON.stringify(str);
}
function slugify(input) {
    return input
        .toLowerCase()
        .trim()
        .replace(/[^\w\s-]/g, "")
        .replace(/[\s_-]+/g, "-")
        .replace(/^-+|-+$/g, "");
}
const captureStackTrace = ("captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => { });
function isObject(data) {
    return typeof data === "object" && data !== null && !Array.isArray(data);
}
const allowsEval = /* @__PURE__*/ cached(() => {
    // Skip the probe under `jitless`: strict CSPs report the caught `new Function` as a `securitypolicyviolation` even though the throw is swallowed.
    if (globalConfig.jitless) {
        return false;
    }
    // @ts-ignore
    if (typeof navigator !== "undefined" && navigator?.userAgent?.includes("Cloudflare")) {
        return false;
    }
    try {
        const F = Function;
        new F("");
        return true;
    }
    catch (_) {
        return false;
    }
});
function isPlainObject(o) {
    if (isObject(o) === false)
        return false;
    // modified constructor
    const ctor = o.constructor;
    if (ctor === undefined)
        return true;
    if (typeof ctor !== "function")
        return true;
    // modified prototype
    const prot = ctor.prototype;
    if (isObject(prot) === false)
        return false;
    // ctor doesn't have static `isPrototypeOf`
    if (Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf") === false) {
        return false;
    }
    return true;
}
function shallowClone(o) {
    if (isPlainObject(o))
        return { ...o };
    if (Array.isArray(o))
        return [...o];
    if (o instanceof Map)
        return new Map(o);
    if (o instanceof Set)
        return new Set(o);
    return o;
}
const propertyKeyTypes = /* @__PURE__*/ new Set(["string", "number", "symbol"]);
function escapeRegex(str) {
    return str.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
// zod-specific utils
function clone(inst, def, params) {
    const cl = new inst._zod.constr(def ?? inst._zod.def);
    if (!def || params?.parent)
        cl._zod.parent = inst;
    return cl;
}
function normalizeParams(_params) {
    const params = _params;
    if (!params)
        return {};
    if (typeof params === "string")
        return { error: () => params };
    if (params?.message !== undefined) {
        if (params?.error !== undefined)
            throw new Error("Cannot specify both `message` and `error` params");
        params.error = params.message;
    }
    delete params.message;
    if (typeof params.error === "string")
        return { ...params, error: () => params.error };
    return params;
}
function stringifyPrimitive(value) {
    if (typeof value === "bigint")
        return value.toString() + "n";
    if (typeof value === "string")
        return `"${value}"`;
    return `${value}`;
}
function optionalKeys(shape) {
    return Object.keys(shape).filter((k) => {
        return shape[k]._zod.optin !== undefined && shape[k]._zod.optout === "optional";
    });
}

const NUMBER_FORMAT_RANGES = /*@__PURE__*/ (() => ({
    safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    int32: [-2147483648, 2147483647],
    uint32: [0, 4294967295],
    float32: [-34028234663852886e22, 3.4028234663852886e38],
    float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
}))();
const BIGINT_FORMAT_RANGES = {
    int64: [/* @__PURE__*/ BigInt("-9223372036854775808"), /* @__PURE__*/ BigInt("9223372036854775807")],
    uint64: [/* @__PURE__*/ BigInt(0), /* @__PURE__*/ BigInt("18446744073709551615")],
};
function pick(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".pick() cannot be used on object schemas containing refinements");
    }
    const newShape = {};
    mirrorShape(newShape, schema, maskedKeys(schema, mask));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
// the mask keys that select something, checked against the source's shape without resolving it
function maskedKeys(schema, mask) {
    const raw = sourceShape(schema);
    const keys = [];
    // `for...in` skips symbols, so a symbol in the mask would select nothing
    for (const key of Reflect.ownKeys(mask)) {
        if (!Object.getOwnPropertyDescriptor(raw, key)?.enumerable) {
            throw new Error(`Unrecognized key: "${String(key)}"`);
        }
        if (mask[key])
            keys.push(key);
    }
    return keys;
}
function omit(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".omit() cannot be used on object schemas containing refinements");
    }
    const omitted = new Set(maskedKeys(schema, mask));
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)).filter((key) => !omitted.has(key)));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
function extend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to extend: expected a plain object");
    }
    const checks = schema._zod.def.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        // Only throw if new shape overlaps with existing shape. Use getOwnPropertyDescriptor to check key existence without accessing values
        const existingShape = sourceShape(schema);
        for (const key of Reflect.ownKeys(shape)) {
            if (Object.getOwnPropertyDescriptor(existingShape, key) !== undefined) {
                throw new Error("Cannot overwrite keys on object schemas containing refinements. Use `.safeExtend()` instead.");
            }
        }
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
// the source's keys, then the caller's overlaid on top
function extended(schema, shape) {
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)));
    mirrorProps(newShape, shape);
    return newShape;
}
function safeExtend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to safeExtend: expected a plain object");
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function merge(a, b) {
    if (!b?._zod?.def) {
        throw new Error("Invalid input to merge: expected an object schema. To merge a plain shape, use `.extend()`.");
    }
    if (a._zod.def.checks?.length) {
        throw new Error(".merge() cannot be used on object schemas containing refinements. Use .safeExtend() instead.");
    }
    const newShape = {};
    mirrorShape(newShape, a, Reflect.ownKeys(sourceShape(a)));
    mirrorShape(newShape, b, Reflect.ownKeys(sourceShape(b)));
    const def = mergeDefs(a._zod.def, {
        shape: newShape,
        get catchall() {
            return b._zod.def.catchall;
        },
        checks: b._zod.def.checks ?? [],
    });
    return clone(a, def);
}
function partial(Class, schema, mask, name = "partial") {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(`.${name}() cannot be used on object schemas containing refinements`);
    }
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), Class &&
        ((value, key) => (selected && !selected.has(key) ? value : new Class({ type: "optional", innerType: value }))));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape, checks: [] }));
}
function required(Class, schema, mask) {
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), (value, key) => 
    // overwrite with non-optional
    selected && !selected.has(key) ? value : new Class({ type: "nonoptional", innerType: value }));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape }));
}
// invalid_type | too_big | too_small | invalid_format | not_multiple_of | unrecognized_keys | invalid_union | invalid_key | invalid_element | invalid_value | custom
function aborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue !== true) {
            return true;
        }
    }
    return false;
}
// Checks for explicit abort (continue === false), as opposed to implicit abort (continue === undefined). Used to respect `abort: true` in .refine() even for checks that have a `when` function.
function explicitlyAborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue === false) {
            return true;
        }
    }
    return false;
}
function prefixIssues(path, issues) {
    return issues.map((iss) => {
        var _a;
        (_a = iss).path ?? (_a.path = []);
        iss.path.unshift(path);
        return iss;
    });
}
function unwrapMessage(message) {
    return typeof message === "string" ? message : message?.message;
}
/* A check holds no link back to the schema it is attached to — the same check instance is shared by every clone of that schema — so the owner is stamped onto the issues a check just raised, at the only point where both are in scope. Runs on the failure path only; `start` is the issue count from before the check ran. */
/** The leading size checks of `defChecks` that set an upper bound, each paired with it. */
function sizeCaps(defChecks) {
    const caps = [];
    for (const ch of defChecks ?? []) {
        const d = ch._zod.def;
        // a later check may rewrite the value
        if (!/_(length|size)$|_equals$/.test(d.check))
            break;
        const max = d.maximum ?? d.length ?? d.size;
        if (max >= 0)
            caps.push([max, ch]);
    }
    return caps;
}
function attachSchema(issues, start, inst) {
    var _a;
    for (let i = start; i < issues.length; i++) {
        (_a = issues[i]).schema ?? (_a.schema = inst);
    }
}
function finalizeIssue(iss, ctx, config) {
    var _a;
    // A schema that raised an issue itself owns it outright, and outranks any stamp an enclosing check left in `attachSchema`. String formats and z.custom() are schema and check at once, so when they act as a check they defer to that stamp instead.
    const traits = iss.inst?._zod?.traits;
    if (traits?.has("$ZodType")) {
        if (traits.has("$ZodCheck"))
            (_a = iss).schema ?? (_a.schema = iss.inst);
        else
            iss.schema = iss.inst;
    }
    // Decreasing specificity, first map to return a message wins. `inst` is whatever raised the issue, so a check's own map outranks the owning schema's.
    const schemaError = iss.schema !== iss.inst ? iss.schema?._zod.def?.error : undefined;
    const message = iss.message
        ? iss.message
        : (unwrapMessage(iss.inst?._zod.def?.error?.(iss)) ??
            unwrapMessage(schemaError?.(iss)) ??
            unwrapMessage(ctx?.error?.(iss)) ??
            unwrapMessage(config.customError?.(iss)) ??
            unwrapMessage(config.localeError?.(iss)) ??
            "Invalid input");
    // an explicit own-key copy beats object rest with excluded keys, which v8 routes through a generic runtime call; Object.keys rather than for-in so an issue pushed with a prototype does not leak inherited keys, and an own __proto__ key is dropped rather than assigned through the setter
    const full = {};
    for (const k of Object.keys(iss)) {
        if (k === "inst" || k === "schema" || k === "continue" || k === "input" || k === "__proto__")
            continue;
        full[k] = iss[k];
    }
    full.path ?? (full.path = []);
    full.message = message;
    if (ctx?.reportInput) {
        full.input = iss.input;
    }
    return full;
}
const highSurrogate = /[\uD800-\uDBFF]/;
// Code points in `str`: a surrogate pair counts once, a lone surrogate as itself. Hand-rolled because the string iterator allocates and runs ~250x slower on this path; the regex probe exits ~50x quicker for a string with no astral characters.
function codePointLength(str) {
    const units = str.length;
    if (!highSurrogate.test(str))
        return units;
    let count = units;
    for (let i = 0; i < units - 1; i++) {
        if ((str.charCodeAt(i) & 0xfc00) === 0xd800 && (str.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
            count--;
            i++;
        }
    }
    return count;
}
function getLengthableOrigin(input) {
    if (Array.isArray(input))
        return "array";
    if (typeof input === "string")
        return "string";
    return "unknown";
}
function parsedType(data) {
    const t = typeof data;
    switch (t) {
        case "number": {
            return Number.isNaN(data) ? "nan" : "number";
        }
        case "object": {
            if (data === null) {
                return "null";
            }
            if (Array.isArray(data)) {
                return "array";
            }
            const obj = data;
            if (obj && Object.getPrototypeOf(obj) !== Object.prototype && "constructor" in obj && obj.constructor) {
                return obj.constructor.name;
            }
        }
    }
    return t;
}
function issue(...args) {
    const [iss, input, inst] = args;
    if (typeof iss === "string") {
        return {
            message: iss,
            code: "custom",
            input,
            inst,
        };
    }
    return { ...iss };
}
//////////    PROTOTYPE INSTALLERS     //////////
//
// Members live on the prototype and materialize per instance on first read, which keeps own-property count under the step where V8 stops using inline slots. Changing anything here means re-measuring runtime, memory and bundle size together — see "The three axes" in AGENTS.md.
/**
 * Installs a trait's members on its prototype. Each value builds that member for the instance on first read; the built value shadows the accessor as an own property, so a detached `const { parse } = schema` keeps working.
 *
 * Call this from a `proto` initializer, which runs once per prototype — never per instance.
 */
function members(proto, table) {
    for (const key in table) {
        const desc = Object.getOwnPropertyDescriptor(table, key);
        // a getter installs as written, so it stays live: `description` reads through to the registry on every access. not enumerable: an object literal's is, and a prototype member never was
        if (desc.get)
            Object.defineProperty(proto, key, { ...desc, enumerable: false });
        // a method materializes bound on first read, which is what keeps a detached member working: `const opt = schema.optional; opt()`
        else
            defineBound(proto, key, desc.value);
    }
}
/** Shadows a prototype member with an own value, so a getter that builds from the instance runs once. */
function own(inst, key, value, enumerable = true) {
    Object.defineProperty(inst, key, { configurable: true, writable: true, enumerable, value });
    return value;
}
/** Like {@link own}, for a member that was never an own data property and has to stay out of `Object.keys`. */
function hide(inst, key, value) {
    return own(inst, key, value, false);
}
/** Adds members a table derives from the instance: each builds on first read and shadows as own data, and assignment shadows the same way, as when these were own properties. */
function derived(computes, table) {
    for (const key in computes) {
        const compute = computes[key];
        // an object literal's accessor is configurable and enumerable, and `members` copies the descriptor as written
        Object.defineProperty(table, key, {
            configurable: true,
            enumerable: true,
            get() {
                return own(this, key, compute(this));
            },
            set(value) {
                own(this, key, value);
            },
        });
    }
    return table;
}
function defineBound(proto, key, fn) {
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // vitest's spyOn calls a prototype getter bare to find the function it wraps, so a nullish receiver answers the raw method
            return this == null ? fn : own(this, key, fn.bind(this));
        },
        set(value) {
            own(this, key, value);
        },
    });
}
/** Returns the prototype to install on, or `undefined` if this group is already installed on it. */
function claim(inst, sentinel) {
    const proto = Object.getPrototypeOf(inst);
    // Runs on every construction, so `in` rather than the costlier `hasOwnProperty.call`. Sentinels are keys the group itself defines.
    return sentinel in proto ? undefined : proto;
}
// The internals whose init chain is installing. A second call for the same one is a derived constructor overriding its base, so it must not construct another schema in between or the override is dropped.
let installing;
// Set while a getter is running, so a value that resolved through a recursion break is not memoized. One shared descriptor shadows the key for the duration, which costs no per-key allocation.
let broke = false;
const breaker = {
    configurable: true,
    get() {
        broke = true;
        return undefined;
    },
};
/**
 * Installs a lazily-derived internal on the `_zod` prototype of `inst`'s
 * constructor, computed from the internals object itself and cached there on
 * first read. One accessor per constructor rather than one per instance.
 */
function defineLazyInternal(inst, key, compute) {
    const proto = Object.getPrototypeOf(inst._zod);
    if (key in proto && installing !== inst._zod) {
        // A repeat construction: everything is installed already. Cleared here so the reference is not held past the first construction of every type.
        installing = undefined;
        return;
    }
    installing = inst._zod;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing so a re-entrant read from a recursive schema resolves to undefined instead of running the getter again.
            Object.defineProperty(this, key, breaker);
            const outer = broke;
            broke = false;
            try {
                const value = compute(this);
                // A result that resolved through a recursion break is recomputed once the graph is complete; everything else memoizes, undefined included.
                if (broke)
                    delete this[key];
                else
                    Object.defineProperty(this, key, { configurable: true, writable: true, value });
                broke = broke || outer;
                return value;
            }
            catch (err) {
                // A compute that threw memoizes nothing, so a later read runs it again and fails the same way. The shadow goes with it, since leaving it installed would answer undefined for every later read.
                delete this[key];
                broke = broke || outer;
                throw err;
            }
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, value });
        },
    });
}
/**
 * Installs `key` on `inst`'s prototype, computed by `make` on first read and cached there as an own
 * data property. One accessor per constructor rather than one per instance, because an own accessor
 * puts every instance after the first into v8 dictionary mode. The key doubles as the sentinel.
 */
function installLazyProp(inst, key, make, enumerable) {
    const proto = claim(inst, key);
    if (!proto)
        return;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing, so a re-entrant read from a self-referential shape resolves to undefined instead of running the getter again. A data property rather than an accessor: an own accessor is the dictionary-mode transition this exists to avoid.
            const desc = { configurable: true, writable: true, enumerable, value: undefined };
            Object.defineProperty(this, key, desc);
            // a compute that throws leaves the shadow behind, so later reads answer undefined instead of re-throwing; `defineLazy` did the same, and `defineLazyInternal`'s delete-on-catch would cost bytes in every bundle for a case only a throwing user getter reaches
            desc.value = make(this);
            Object.defineProperty(this, key, desc);
            return desc.value;
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, enumerable, value });
        },
    });
}
/** Marks the thunk `_catch` synthesises for a constant catch value. `Function.length` cannot tell that thunk from a user callback — rest and defaulted parameters both report arity 0 — and a user callback reads `ctx.error`, whose issues only finalize correctly against the caller's per-parse error map. Provenance can say what arity cannot. A plain string key rather than `Symbol.for`, whose call at module scope no bundler can prove pure — the same shape that anchored `urlCanParse` into every build. */
const CONSTANT_CATCH = "~constantCatch";
/** Wraps a constant catch value in a thunk tagged with {@link CONSTANT_CATCH}. */
function constantCatch(value) {
    const fn = () => value;
    fn[CONSTANT_CATCH] = true;
    return fn;
}

var _a$1;
/** A special constant with type `never` */
const NEVER = /*@__PURE__*/ Object.freeze({
    status: "aborted",
});
/* Shared descriptor for installing `_zod`; defineProperty reads it
 * synchronously, so reusing one object avoids a per-instance allocation. */
const _zodDesc = { value: undefined, enumerable: false };
// null where suppressing the capture would be unrecoverable: `parse()` puts the frames back with `captureStackTrace`, so without it the throw would lose its stack. also latched to null once `stackTraceLimit` proves unassignable, which a realm can do at any point by hardening Error
let _E = "captureStackTrace" in Error ? Error : null;
// v8 captures a stack trace inside the Error constructor, which dominates a failed parse; costs only the frames, and parse() restores those. the constructor must RUN: Object.create is cheaper and passes instanceof, but Error.isError and util.types.isNativeError check an internal slot
function newError(Definition) {
    const E = _E;
    if (E) {
        const saved = E.stackTraceLimit;
        if (typeof saved === "number") {
            try {
                E.stackTraceLimit = 0;
            }
            catch {
                _E = null;
                return new Definition();
            }
            try {
                return new Definition();
            }
            finally {
                E.stackTraceLimit = saved;
            }
        }
    }
    return new Definition();
}
function $constructor(name, initializer, 
/** This trait's members, installed once on every prototype that composes it. They cannot be declared in the initializer above: that runs per instance, and the prototype is shared. */
proto, params) {
    // Prototype for this constructor's `_zod` internals. Lazily-derived fields (`values`, `pattern`, `optin`, …) install here once rather than as an accessor on every instance.
    const zodProto = {};
    // Assigning the fields in the constructor body is what gives instances in-object slots; building the object literally and reparenting it costs a second allocation and a generic property copy.
    function Internals(def) {
        this.def = def;
        this.constr = _;
        this.traits = new Set();
    }
    Internals.prototype = zodProto;
    const protoMembers = proto;
    // One trait's members land on every prototype whose chain composes it, so the answer is per prototype rather than per trait.
    const initialized = protoMembers && new WeakSet();
    function init(inst, def) {
        if (!inst._zod) {
            _zodDesc.value = new Internals(def);
            try {
                Object.defineProperty(inst, "_zod", _zodDesc);
            }
            finally {
                // Cleared even on throw, so the shared descriptor never leaks one instance's internals into the next.
                _zodDesc.value = undefined;
            }
        }
        else if (inst._zod.traits.has(name)) {
            return;
        }
        inst._zod.traits.add(name);
        initializer(inst, def);
        if (initialized) {
            // `super(def)` from a user subclass gives `this` a prototype the subclass owns, and installing there would overwrite whatever the subclass declared. `constr` built the instance, so its prototype is the one below the subclass's that should carry the members. A receiver whose chain never reaches that prototype installs on its own, which for a plain object handed straight to `init` means `Object.prototype` — unchanged from before.
            const own = Object.getPrototypeOf(inst);
            const ctorProto = inst._zod.constr.prototype;
            let up = own;
            while (up && up !== ctorProto)
                up = Object.getPrototypeOf(up);
            const target = up ?? own;
            if (!initialized.has(target)) {
                initialized.add(target);
                members(target, protoMembers);
            }
        }
        // support prototype modifications; for-in avoids the array allocation of Object.keys on the (usually empty) prototype
        const proto = _.prototype;
        for (const k in proto) {
            if (!Object.prototype.hasOwnProperty.call(proto, k))
                continue;
            if (!(k in inst)) {
                inst[k] = proto[k].bind(inst);
            }
        }
    }
    // doesn't work if Parent has a constructor with arguments
    const Parent = params?.Parent ?? Object;
    class Definition extends Parent {
    }
    Object.defineProperty(Definition, "name", { value: name });
    function _(def) {
        const inst = params?.Parent ? newError(Definition) : this;
        init(inst, def);
        const deferred = inst._zod.deferred;
        if (deferred) {
            for (const fn of deferred) {
                fn();
            }
            // Released: initializers run once, and the list would otherwise be retained for the schema's lifetime.
            inst._zod.deferred = undefined;
        }
        // Global post-processor hook. Internal: installed by `import "zod/compile"` to enable AOT compilation for every constructed schema. Runs last, once the instance is fully built, because it hands the instance to compile(). The post-processor is expected to be reentrancy-guarded by its own implementation.
        const pp = globalThis.__zod_globalConfig?.postProcessor;
        if (pp)
            pp(inst);
        return inst;
    }
    Object.defineProperty(_, "init", { value: init });
    Object.defineProperty(_, Symbol.hasInstance, {
        value: (inst) => {
            if (params?.Parent && inst instanceof params.Parent)
                return true;
            return inst?._zod?.traits?.has(name);
        },
    });
    Object.defineProperty(_, "name", { value: name });
    return _;
}
class $ZodAsyncError extends Error {
    constructor() {
        super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
    }
}
class $ZodEncodeError extends Error {
    constructor(name) {
        super(`Encountered unidirectional transform during encode: ${name}`);
        this.name = "ZodEncodeError";
    }
}
(_a$1 = globalThis).__zod_globalConfig ?? (_a$1.__zod_globalConfig = {});
const globalConfig = globalThis.__zod_globalConfig;
function config(newConfig) {
    if (newConfig)
        Object.assign(globalConfig, newConfig);
    return globalConfig;
}

/* Computing the message eagerly is expensive (pretty-printed JSON of all
 * issues), so defer it until first read. The accessor functions and
 * descriptors are shared across instances to keep error construction
 * cheap; the computed message is cached on the internals object. The
 * setter preserves plain assignment semantics for consumers that
 * overwrite `message`. */
function _getMessage() {
    const internals = this._zod;
    internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
    return internals.message;
}
function _setMessage(value) {
    this._zod.message = value;
}
const _messageDesc = {
    get: _getMessage,
    set: _setMessage,
    enumerable: true,
    configurable: true,
};
const _issuesDesc = { value: undefined, enumerable: false };
/* Prototypes that already carry the lazy `toString`. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
const initializer$1 = (inst, def) => {
    inst.name = "$ZodError";
    // `_zod` is already non-enumerable: $constructor's init defined it with this same descriptor
    _issuesDesc.value = def;
    Object.defineProperty(inst, "issues", _issuesDesc);
    // Clear the shared slot; a retained `value` pins the last error's issues.
    _issuesDesc.value = undefined;
    Object.defineProperty(inst, "message", _messageDesc);
    /* `toString` lives as a non-enumerable lazy getter on the shared
     * prototype; on first access it caches a per-instance closure so
     * detached usage still works. */
    const proto = Object.getPrototypeOf(inst);
    if (!_installedToString.has(proto)) {
        _installedToString.add(proto);
        Object.defineProperty(proto, "toString", {
            configurable: true,
            enumerable: false,
            get() {
                const value = () => this.message;
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
                return value;
            },
            set(value) {
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
            },
        });
    }
};
const $ZodError = $constructor("$ZodError", initializer$1);
/** Get-or-create `obj[key]` as an own data property. A path segment naming an inherited member
 * ("toString", "constructor") would otherwise read through to the prototype, and assigning
 * "__proto__" would hit the setter instead of creating a key. */
function node(obj, key, make) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) {
        if (key === "__proto__") {
            Object.defineProperty(obj, key, { value: make(), writable: true, enumerable: true, configurable: true });
        }
        else {
            obj[key] = make();
        }
    }
    return obj[key];
}
function flattenError(error, mapper = (issue) => issue.message) {
    const fieldErrors = {};
    const formErrors = [];
    for (const sub of error.issues) {
        if (sub.path.length > 0) {
            node(fieldErrors, sub.path[0], () => []).push(mapper(sub));
        }
        else {
            formErrors.push(mapper(sub));
        }
    }
    return { formErrors, fieldErrors };
}
function formatError(error, mapper = (issue) => issue.message) {
    const fieldErrors = { _errors: [] };
    const processError = (error, path = []) => {
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    fieldErrors._errors.push(mapper(issue));
                }
                else {
                    let curr = fieldErrors;
                    let i = 0;
                    while (i < fullpath.length) {
                        const el = fullpath[i];
                        const terminal = i === fullpath.length - 1;
                        // `_errors` is reserved by this legacy format, so merge a matching path segment into the current node instead of treating its array as a child.
                        if (el === "_errors") {
                            if (terminal)
                                curr._errors.push(mapper(issue));
                            i++;
                            continue;
                        }
                        // A path element may collide with an inherited property name such as
                        // "__proto__" or "constructor". Truthiness checks read the prototype
                        // (so no node is created, then ._errors.push throws), and bracket
                        // assignment of "__proto__" hits the setter instead of creating an
                        // own key. Guard the read with hasOwnProperty and create the node
                        // with defineProperty so any path element becomes a real own key.
                        if (!Object.prototype.hasOwnProperty.call(curr, el)) {
                            Object.defineProperty(curr, el, {
                                value: { _errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        const node = curr[el];
                        if (terminal) {
                            node._errors.push(mapper(issue));
                        }
                        curr = node;
                        i++;
                    }
                }
            }
        }
    };
    processError(error);
    return fieldErrors;
}

// Always both keys, so the `_params` read site in `_parse` sees one object shape rather than two.
function finalizeParams(callee, params) {
    return { callee: params?.callee ?? callee, Err: params?.Err };
}
const _parse = (_Err) => {
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
        const result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise) {
            throw new $ZodAsyncError();
        }
        if (result.issues.length) {
            const e = new (_params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, _params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const _parseAsync = (_Err) => {
    const fn = async (schema, value, _ctx, params) => {
        const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
        let result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise)
            result = await result;
        if (result.issues.length) {
            const e = new (params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const _safeParse = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
    const result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
// the error is built on the first read of `error`: finalizing the issues and constructing the instance is most of a failing parse, and a caller that only branches on `success` never pays it. a getter in the literal keeps this small; the alternative, one shared accessor descriptor plus a hidden state slot, reads ~15% faster but costs ~75 B gzipped in every bundle
function failure(Err, issues, ctx) {
    let error;
    return {
        success: false,
        get error() {
            if (!error) {
                error = new Err(issues.map((iss) => finalizeIssue(iss, ctx, config())));
                // finalizeIssue drops `input`, so the built error holds nothing; keeping the raw issues past this point pins the parsed value for the life of the result
                issues = undefined;
                ctx = undefined;
            }
            return error;
        },
        set error(e) {
            error = e;
            // a replacement makes the getter's branch unreachable, so the captures have to go here too
            issues = undefined;
            ctx = undefined;
        },
    };
}
const _safeParseAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
// registry mirrors of the compiler's sentinels, so this module never imports the compiler
const COMPILE_INVALID = /* @__PURE__ */ Symbol.for("zod.compile.invalid");
const COMPILE_FALLBACK = /* @__PURE__ */ Symbol.for("zod.compile.fallback");
// Deliberately tiny, because v8 will not inline a body carrying the fallback's object literals and throw. Everything that is not the compiled happy path lives in validateFallback, and that split is worth ~35% on a compiled schema.
const validate = ((schema, value, _ctx) => {
    const validator = schema._zod.bag.validator;
    if (validator !== undefined) {
        if (validator(value) !== COMPILE_INVALID)
            return true;
        // a definite sentinel means the runtime would reject, so skip the re-parse; a ctx can still change the answer
        if (validator.definite === true && _ctx === undefined)
            return false;
    }
    return validateFallback(schema, value, _ctx);
});
function validateFallback(schema, value, _ctx) {
    const ctx = _ctx
        ? { ..._ctx, async: false, abortEarly: true }
        : { async: false, abortEarly: true };
    const fallbackRun = schema._zod.bag.fallbackRun;
    let result;
    if (fallbackRun) {
        // skip nested fast paths on the fallback, so user callbacks keep the at-most-twice bound
        ctx[COMPILE_FALLBACK] = true;
        result = fallbackRun({ value, issues: [] }, ctx);
    }
    else {
        result = schema._zod.run({ value, issues: [] }, ctx);
    }
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length === 0;
}
// no fast path: the compiler keeps async parses on the runtime, because a promise-returning callback that is not declared async compiles to a throw
const validateAsync$1 = async (schema, value, _ctx) => {
    const ctx = _ctx
        ? { ..._ctx, async: true, abortEarly: true }
        : { async: true, abortEarly: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length === 0;
};
const _encode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return parse(schema, value, ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const _decode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        return parse(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const _encodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return (await parseAsync(schema, value, ctx, finalizeParams(fn, _params)));
    };
    return fn;
};
const _decodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        return await parseAsync(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const _safeEncode = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParse(_Err)(schema, value, ctx);
};
const _safeDecode = (_Err) => (schema, value, _ctx) => {
    return _safeParse(_Err)(schema, value, _ctx);
};
const _safeEncodeAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParseAsync(_Err)(schema, value, ctx);
};
const _safeDecodeAsync = (_Err) => async (schema, value, _ctx) => {
    return _safeParseAsync(_Err)(schema, value, _ctx);
};

/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const cuid = /^[cC][0-9a-z]{6,}$/;
const cuid2 = /^[0-9a-z]+$/;
const ulid = /^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/;
const xid = /^[0-9a-vA-V]{20}$/;
const ksuid = /^[A-Za-z0-9]{27}$/;
const nanoid = /^[a-zA-Z0-9_-]{21}$/;
function nanoidOfLength(length) {
    return new RegExp(`^[a-zA-Z0-9_-]{${length}}$`);
}
/** ISO 8601-1 duration regex. Does not support the 8601-2 extensions like negative durations or fractional/negative components. */
const duration$1 = /^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$/;
/** A regex for any UUID-like identifier: 8-4-4-4-12 hex pattern */
const guid = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
/** Returns a regex for validating an RFC 9562/4122 UUID.
 *
 * @param version Optionally specify a version 1-8. If no version is specified, all versions are supported. */
const uuid = (version) => {
    if (!version)
        return /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
    return new RegExp(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-${version}[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$`);
};
/** Practical email validation */
const email = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
// from https://thekevinscott.com/emojis-in-javascript/#writing-a-regular-expression
// Single character class, not an alternation: the two properties overlap (U+1F9B0-U+1F9B3), so `(A|B)+` backtracks exponentially on a failed match. The leading lookahead then demands one anchor — a pictograph, a regional indicator, or the enclosing keycap — because `\p{Emoji_Component}` on its own covers ASCII digits, `#`, `*`, ZWJ, variation selectors and skin tone modifiers, none of which is an emoji without a base.
const _emoji$1 = `^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`;
function emoji() {
    return new RegExp(_emoji$1, "u");
}
const ipv4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
const ipv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$/;
const cidrv4 = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/([0-9]|[1-2][0-9]|3[0-2])$/;
const cidrv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
// https://stackoverflow.com/questions/7860392/determine-if-string-is-in-base64-using-javascript
const base64 = /^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/;
const base64url = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;
const httpProtocol = /^https?$/;
// https://blog.stevenlevithan.com/archives/validate-phone-number#r4-3 (regex sans spaces) E.164: leading digit must be 1-9; total digits (excluding '+') between 7-15
const e164 = /^\+[1-9]\d{6,14}$/;
const dateSource = `(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))`;

function anchor(source) {
    return new RegExp(`^${source}$`);
}
const date = /*@__PURE__*/ anchor(dateSource);
function timeSource(args) {
    const hhmm = `(?:[01]\\d|2[0-3]):[0-5]\\d`;
    const regex = typeof args.precision === "number"
        ? args.precision === -1
            ? `${hhmm}`
            : args.precision === 0
                ? `${hhmm}:[0-5]\\d`
                : `${hhmm}:[0-5]\\d\\.\\d{${args.precision}}`
        : args.seconds
            ? `${hhmm}:[0-5]\\d(?:\\.\\d+)?`
            : `${hhmm}(?::[0-5]\\d(?:\\.\\d+)?)?`;
    return regex;
}
function time(args) {
    return new RegExp(`^${timeSource(args)}$`);
}
// Adapted from https://stackoverflow.com/a/3143231
function datetime(args) {
    const opts = ["Z"];
    // if (args.offset) opts.push(`([+-]\\d{2}:\\d{2})`);
    if (args.offset)
        opts.push(`([+-](?:[01]\\d|2[0-3]):[0-5]\\d)`);
    // RFC 3339 mandates seconds wherever the time carries a `Z` or an offset, so only the unqualified form `local` adds may omit them
    const qualified = `${timeSource({ precision: args.precision, seconds: true })}(?:${opts.join("|")})`;
    const timeRegex = args.local ? `${qualified}|${timeSource({ precision: args.precision })}` : qualified;
    return new RegExp(`^${dateSource}T(?:${timeRegex})$`);
}
// the unbounded form of `string()` as a literal, so every plain string shares one instance instead of building its own
const anyString = /^[\s\S]{0,}$/;
const integer = /^-?\d+$/;
const number$1 = /^-?\d+(?:\.\d+)?$/;
const boolean$1 = /^(?:true|false)$/i;
// regex for string with no uppercase letters
const lowercase = /^[^A-Z]*$/;
// regex for string with no lowercase letters
const uppercase = /^[^a-z]*$/;

// import { $ZodType } from "./schemas.js";
const $ZodCheck = /*@__PURE__*/ $constructor("$ZodCheck", (inst, def) => {
    var _a;
    inst._zod ?? (inst._zod = {});
    inst._zod.def = def;
    (_a = inst._zod).onattach ?? (_a.onattach = []);
});
/** Default `when` for length-based checks: run only on non-nullish values with a `length`. */
const _whenHasLength = (payload) => {
    const val = payload.value;
    return !nullish(val) && val.length !== undefined;
};
const numericOriginMap = {
    number: "number",
    bigint: "bigint",
    object: "date",
};
const $ZodCheckLessThan = /*@__PURE__*/ $constructor("$ZodCheckLessThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value <= def.value : payload.value < def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_big",
            maximum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckGreaterThan = /*@__PURE__*/ $constructor("$ZodCheckGreaterThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value >= def.value : payload.value > def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_small",
            minimum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMultipleOf = 
/*@__PURE__*/ $constructor("$ZodCheckMultipleOf", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        if (typeof payload.value !== typeof def.value)
            throw new Error("Cannot mix number and bigint in multiple_of check.");
        const isMultiple = typeof payload.value === "bigint"
            ? // `value % 0n` throws, and nothing is a multiple of zero — the number branch already fails this way via NaN
                def.value !== BigInt(0) && payload.value % def.value === BigInt(0)
            : floatSafeRemainder(payload.value, def.value) === 0;
        if (isMultiple)
            return;
        payload.issues.push({
            origin: typeof payload.value,
            code: "not_multiple_of",
            divisor: def.value,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckNumberFormat = /*@__PURE__*/ $constructor("$ZodCheckNumberFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    def.format = def.format || "float64";
    const isInt = def.format?.includes("int");
    const origin = isInt ? "int" : "number";
    const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (isInt) {
            if (!Number.isInteger(input)) {
                // invalid_format issue
                // payload.issues.push({
                //   expected: def.format,
                //   format: def.format,
                //   code: "invalid_format",
                //   input,
                //   inst,
                // });
                // invalid_type issue
                payload.issues.push({
                    expected: origin,
                    format: def.format,
                    code: "invalid_type",
                    continue: false,
                    input,
                    inst,
                });
                return;
                // not_multiple_of issue
                // payload.issues.push({
                //   code: "not_multiple_of",
                //   origin: "number",
                //   input,
                //   inst,
                //   divisor: 1,
                // });
            }
            if (!Number.isSafeInteger(input)) {
                if (input > 0) {
                    // too_big
                    payload.issues.push({
                        input,
                        code: "too_big",
                        maximum: Number.MAX_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                else {
                    // too_small
                    payload.issues.push({
                        input,
                        code: "too_small",
                        minimum: Number.MIN_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                return;
            }
        }
        if (input < minimum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_small",
                minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodCheckMaxLength = /*@__PURE__*/ $constructor("$ZodCheckMaxLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // Strings are measured in Unicode code points, not UTF-16 units. A code point is at most two units, so a string that already fits in units fits in code points; only an overflow has to be counted.
        const length = typeof input === "string" && units > def.maximum ? codePointLength(input) : units;
        if (length <= def.maximum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMinLength = /*@__PURE__*/ $constructor("$ZodCheckMinLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so fewer units than the floor can never reach it and twice the floor always clears it. Only in between is the exact count in doubt.
        const length = typeof input === "string" && units >= def.minimum && units < def.minimum * 2
            ? codePointLength(input)
            : units;
        if (length >= def.minimum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLengthEquals = /*@__PURE__*/ $constructor("$ZodCheckLengthEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so outside `[length, length * 2]` units the target is missed either way — and missed in the same direction in both measures.
        const length = typeof input === "string" && units >= def.length && units <= def.length * 2
            ? codePointLength(input)
            : units;
        if (length === def.length)
            return;
        const origin = getLengthableOrigin(input);
        const tooBig = length > def.length;
        payload.issues.push({
            origin,
            ...(tooBig ? { code: "too_big", maximum: def.length } : { code: "too_small", minimum: def.length }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStringFormat = /*@__PURE__*/ $constructor("$ZodCheckStringFormat", (inst, def) => {
    var _a, _b;
    $ZodCheck.init(inst, def);
    if (def.pattern)
        (_a = inst._zod).check ?? (_a.check = (payload) => {
            def.pattern.lastIndex = 0;
            if (def.pattern.test(payload.value))
                return;
            payload.issues.push({
                origin: "string",
                code: "invalid_format",
                format: def.format,
                input: payload.value,
                ...(def.pattern ? { pattern: def.pattern.toString() } : {}),
                inst,
                continue: !def.abort,
            });
        });
    else
        (_b = inst._zod).check ?? (_b.check = () => { });
});
const $ZodCheckRegex = /*@__PURE__*/ $constructor("$ZodCheckRegex", (inst, def) => {
    $ZodCheckStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        def.pattern.lastIndex = 0;
        if (def.pattern.test(payload.value))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "regex",
            input: payload.value,
            pattern: def.pattern.toString(),
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLowerCase = /*@__PURE__*/ $constructor("$ZodCheckLowerCase", (inst, def) => {
    def.pattern ?? (def.pattern = lowercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckUpperCase = /*@__PURE__*/ $constructor("$ZodCheckUpperCase", (inst, def) => {
    def.pattern ?? (def.pattern = uppercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckIncludes = /*@__PURE__*/ $constructor("$ZodCheckIncludes", (inst, def) => {
    $ZodCheck.init(inst, def);
    const escapedRegex = escapeRegex(def.includes);
    // `String.prototype.includes(sub, position)` matches `sub` at `position`
    // OR LATER, so the pattern must allow at least `position` leading chars
    // (`{N,}`), not exactly `position` chars (`{N}`).
    const pattern = new RegExp(typeof def.position === "number" ? `^.{${def.position},}${escapedRegex}` : escapedRegex);
    def.pattern = pattern;
    inst._zod.check = (payload) => {
        if (payload.value.includes(def.includes, def.position))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "includes",
            includes: def.includes,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStartsWith = /*@__PURE__*/ $constructor("$ZodCheckStartsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`^${escapeRegex(def.prefix)}.*`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.startsWith(def.prefix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "starts_with",
            prefix: def.prefix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckEndsWith = /*@__PURE__*/ $constructor("$ZodCheckEndsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`.*${escapeRegex(def.suffix)}$`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.endsWith(def.suffix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "ends_with",
            suffix: def.suffix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckOverwrite = /*@__PURE__*/ $constructor("$ZodCheckOverwrite", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        payload.value = def.tx(payload.value);
    };
});

class Doc {
    constructor(args = [], closed = {}) {
        this.content = [];
        this.indent = 0;
        this.args = args;
        this.closed = closed;
    }
    // the compiler catches a child's throw and keeps writing into this doc, so the indent has to unwind with it
    indented(fn) {
        this.indent += 1;
        try {
            fn(this);
        }
        finally {
            this.indent -= 1;
        }
    }
    write(arg) {
        if (typeof arg === "function") {
            arg(this, { execution: "sync" });
            arg(this, { execution: "async" });
            return;
        }
        const content = arg;
        const lines = content.split("\n").filter((x) => x);
        const minIndent = Math.min(...lines.map((x) => x.length - x.trimStart().length));
        const dedented = lines.map((x) => x.slice(minIndent)).map((x) => " ".repeat(this.indent * 2) + x);
        for (const line of dedented) {
            this.content.push(line);
        }
    }
    compile() {
        const F = Function;
        const content = this?.content ?? [``];
        const factory = new F(...Object.keys(this.closed), `return function (${this.args.join(", ")}) {\n${content.join("\n")}\n};`);
        return factory(...Object.values(this.closed));
    }
}

const version = {
    major: 4,
    minor: 6,
    patch: 7,
};

const $ZodType = /*@__PURE__*/ $constructor("$ZodType", (inst, def) => {
    var _a;
    inst ?? (inst = {});
    inst._zod.def = def; // set _def property
    inst._zod.bag = inst._zod.bag || {}; // initialize _bag object
    inst._zod.version = version;
    const defChecks = inst._zod.def.checks;
    // if inst is itself a checks.$ZodCheck, run it as a check
    const checks = inst._zod.traits.has("$ZodCheck")
        ? [inst, ...(defChecks ?? [])]
        : defChecks?.length
            ? [...defChecks]
            : [];
    for (const ch of checks) {
        for (const fn of ch._zod.onattach) {
            fn(inst);
        }
    }
    if (checks.length === 0) {
        // deferred initializer inst._zod.parse is not yet defined
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred?.push(() => {
            inst._zod.run = inst._zod.parse;
        });
    }
    else {
        const runChecks = (payload, checks, ctx) => {
            if (payload.memo)
                return payload;
            let isAborted = aborted(payload);
            let asyncResult;
            for (const ch of checks) {
                if (ch._zod.def.when) {
                    if (explicitlyAborted(payload))
                        continue;
                    const shouldRun = ch._zod.def.when(payload);
                    if (!shouldRun)
                        continue;
                }
                else if (isAborted) {
                    continue;
                }
                const currLen = payload.issues.length;
                const _ = ch._zod.check(payload);
                if (_ instanceof Promise && ctx?.async === false) {
                    throw new $ZodAsyncError();
                }
                if (asyncResult || _ instanceof Promise) {
                    asyncResult = (asyncResult ?? Promise.resolve()).then(async () => {
                        await _;
                        const nextLen = payload.issues.length;
                        if (nextLen === currLen)
                            return;
                        attachSchema(payload.issues, currLen, inst);
                        if (!isAborted)
                            isAborted = aborted(payload, currLen);
                    });
                }
                else {
                    const nextLen = payload.issues.length;
                    if (nextLen === currLen)
                        continue;
                    attachSchema(payload.issues, currLen, inst);
                    if (!isAborted)
                        isAborted = aborted(payload, currLen);
                }
            }
            if (asyncResult) {
                return asyncResult.then(() => {
                    return payload;
                });
            }
            return payload;
        };
        const handleCanaryResult = (canary, payload, ctx) => {
            // abort if the canary is aborted
            if (aborted(canary)) {
                canary.aborted = true;
                return canary;
            }
            // run checks first, then
            const checkResult = runChecks(payload, checks, ctx);
            if (checkResult instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return checkResult.then((checkResult) => inst._zod.parse(checkResult, ctx));
            }
            return inst._zod.parse(checkResult, ctx);
        };
        inst._zod.run = (payload, ctx) => {
            if (ctx.skipChecks) {
                return inst._zod.parse(payload, ctx);
            }
            if (ctx.direction === "backward") {
                // run canary initial pass (no checks)
                const canary = inst._zod.parse({ value: payload.value, issues: [] }, { ...ctx, skipChecks: true });
                if (canary instanceof Promise) {
                    return canary.then((canary) => {
                        return handleCanaryResult(canary, payload, ctx);
                    });
                }
                return handleCanaryResult(canary, payload, ctx);
            }
            // forward
            const result = inst._zod.parse(payload, ctx);
            if (result instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return result.then((result) => runChecks(result, checks, ctx));
            }
            return runChecks(result, checks, ctx);
        };
    }
}, {
    // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
    get "~standard"() {
        return hide(this, "~standard", standardProps(this));
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
});
/** The Standard Schema surface for `inst`. Shared so wrappers can extend it without forcing it. */
// a Standard Schema result only reports issues, so a failure finalizes them straight off the raw payload: no ZodError, and no lazy result to read through
const toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
async function validateAsync(inst, value) {
    const ctx = { async: true };
    return toStandardResult((await inst._zod.run({ value, issues: [] }, ctx)), ctx);
}
function standardProps(inst) {
    return {
        validate: (value) => {
            const ctx = { async: false };
            try {
                const r = inst._zod.run({ value, issues: [] }, ctx);
                if (!(r instanceof Promise))
                    return toStandardResult(r, ctx);
            }
            catch (_) { }
            // async function so a synchronously throwing check rejects instead of escaping validate
            return validateAsync(inst, value);
        },
        vendor: "zod",
        version: 1,
    };
}
const $ZodString = /*@__PURE__*/ $constructor("$ZodString", (inst, def) => {
    $ZodType.init(inst, def);
    // a format's own pattern, else unbounded; a template literal derives the check-aware form itself
    inst._zod.pattern = def.pattern ?? anyString;
    inst._zod.parse = (payload, _) => {
        if (def.coerce)
            try {
                payload.value = String(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "string")
            return payload;
        payload.issues.push({
            expected: "string",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodStringFormat = /*@__PURE__*/ $constructor("$ZodStringFormat", (inst, def) => {
    // check initialization must come first
    $ZodCheckStringFormat.init(inst, def);
    $ZodString.init(inst, def);
});
const $ZodGUID = /*@__PURE__*/ $constructor("$ZodGUID", (inst, def) => {
    def.pattern ?? (def.pattern = guid);
    $ZodStringFormat.init(inst, def);
});
const $ZodUUID = /*@__PURE__*/ $constructor("$ZodUUID", (inst, def) => {
    if (def.version) {
        const versionMap = {
            v1: 1,
            v2: 2,
            v3: 3,
            v4: 4,
            v5: 5,
            v6: 6,
            v7: 7,
            v8: 8,
        };
        const v = versionMap[def.version];
        if (v === undefined)
            throw new Error(`Invalid UUID version: "${def.version}"`);
        def.pattern ?? (def.pattern = uuid(v));
    }
    else
        def.pattern ?? (def.pattern = uuid());
    $ZodStringFormat.init(inst, def);
});
const $ZodEmail = /*@__PURE__*/ $constructor("$ZodEmail", (inst, def) => {
    def.pattern ?? (def.pattern = email);
    $ZodStringFormat.init(inst, def);
});
/** The `://` guard rejected the input before the URL constructor saw it. */
const URL_BAD_FORMAT = 1;
/** The URL parser rejected the input. */
const URL_UNPARSEABLE = 2;
function canParseURL(input) {
    try {
        if (typeof URL !== "undefined" && typeof URL.canParse === "function")
            return URL.canParse(input);
        new URL(input);
        return true;
    }
    catch {
        return false;
    }
}
function validateURL(trimmed, def) {
    if (!("normalize" in def) && !("hostname" in def) && !("protocol" in def)) {
        return canParseURL(trimmed) || URL_UNPARSEABLE;
    }
    return parseURLObject(trimmed, def);
}
/** Parses a URL while preserving the non-normalizing HTTP guard. */
function parseURLObject(trimmed, def) {
    // When normalize is off, require :// for http/https URLs. This prevents strings like "http:example.com" or "https:/path" from being silently accepted
    if (!def.normalize && def.protocol?.source === httpProtocol.source && !/^https?:\/\//i.test(trimmed)) {
        return URL_BAD_FORMAT;
    }
    try {
        if (typeof URL !== "undefined") {
            const URLStatic = URL;
            if (typeof URLStatic.parse === "function")
                return URLStatic.parse(trimmed) ?? URL_UNPARSEABLE;
        }
        // @ts-ignore
        return new URL(trimmed);
    }
    catch {
        return URL_UNPARSEABLE;
    }
}
const asciiTabOrNewline = /[\t\n\r]/g;
/** The URL parser deletes every ASCII tab, LF and CR from its input before it parses, so `new URL("https://exa\nmple.com")` reports on `example.com`. Applying the same deletion to the returned value closes the half of that divergence which can move the host; the parser's other rewrite, stripping C0 controls at the edges, cannot. */
function stripTabAndNewline(value) {
    return value.replace(asciiTabOrNewline, "");
}
function urlHostnameOk(url, hostname) {
    hostname.lastIndex = 0;
    return hostname.test(url.hostname);
}
function urlProtocolOk(url, protocol) {
    protocol.lastIndex = 0;
    return protocol.test(url.protocol.endsWith(":") ? url.protocol.slice(0, -1) : url.protocol);
}
const $ZodURL = /*@__PURE__*/ $constructor("$ZodURL", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        try {
            // Trim whitespace from input
            const trimmed = payload.value.trim();
            const url = validateURL(trimmed, def);
            if (url === URL_BAD_FORMAT) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid URL format",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === URL_UNPARSEABLE) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === true) {
                payload.value = stripTabAndNewline(trimmed);
                return;
            }
            if (def.hostname && !urlHostnameOk(url, def.hostname)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid hostname",
                    pattern: def.hostname.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            if (def.protocol && !urlProtocolOk(url, def.protocol)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid protocol",
                    pattern: def.protocol.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            // Set the output value based on normalize flag
            payload.value = def.normalize ? url.href : stripTabAndNewline(trimmed);
            return;
        }
        catch (_) {
            payload.issues.push({
                code: "invalid_format",
                format: "url",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodEmoji = /*@__PURE__*/ $constructor("$ZodEmoji", (inst, def) => {
    def.pattern ?? (def.pattern = emoji());
    $ZodStringFormat.init(inst, def);
});
const $ZodNanoID = /*@__PURE__*/ $constructor("$ZodNanoID", (inst, def) => {
    if (def.length !== undefined && (!Number.isInteger(def.length) || def.length < 1))
        throw new Error(`Invalid nanoid length: ${def.length}`);
    def.pattern ?? (def.pattern = def.length === undefined ? nanoid : nanoidOfLength(def.length));
    $ZodStringFormat.init(inst, def);
});
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link $ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const $ZodCUID = /*@__PURE__*/ $constructor("$ZodCUID", (inst, def) => {
    def.pattern ?? (def.pattern = cuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodCUID2 = /*@__PURE__*/ $constructor("$ZodCUID2", (inst, def) => {
    def.pattern ?? (def.pattern = cuid2);
    $ZodStringFormat.init(inst, def);
});
const $ZodULID = /*@__PURE__*/ $constructor("$ZodULID", (inst, def) => {
    def.pattern ?? (def.pattern = ulid);
    $ZodStringFormat.init(inst, def);
});
const $ZodXID = /*@__PURE__*/ $constructor("$ZodXID", (inst, def) => {
    def.pattern ?? (def.pattern = xid);
    $ZodStringFormat.init(inst, def);
});
const $ZodKSUID = /*@__PURE__*/ $constructor("$ZodKSUID", (inst, def) => {
    def.pattern ?? (def.pattern = ksuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodISODateTime = /*@__PURE__*/ $constructor("$ZodISODateTime", (inst, def) => {
    def.pattern ?? (def.pattern = datetime(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODate = /*@__PURE__*/ $constructor("$ZodISODate", (inst, def) => {
    def.pattern ?? (def.pattern = date);
    $ZodStringFormat.init(inst, def);
});
const $ZodISOTime = /*@__PURE__*/ $constructor("$ZodISOTime", (inst, def) => {
    def.pattern ?? (def.pattern = time(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODuration = /*@__PURE__*/ $constructor("$ZodISODuration", (inst, def) => {
    def.pattern ?? (def.pattern = duration$1);
    $ZodStringFormat.init(inst, def);
});
const $ZodIPv4 = /*@__PURE__*/ $constructor("$ZodIPv4", (inst, def) => {
    def.pattern ?? (def.pattern = ipv4);
    $ZodStringFormat.init(inst, def);
});
/** An IPv6 address is written with hex digits, colons and dots, and nothing else. The guard is what makes the check below an IPv6 check: `new URL("http://[...]")` parses an authority, not an address, so `@` and `\` re-delimit it and `"::@1\\"` validates against the host `0.0.0.1`. The URL parser also deletes ASCII tab, LF and CR rather than failing, which is how `"::1\n"` validated as `::1`. */
const ipv6Alphabet = /^[0-9a-fA-F:.]+$/;
function isValidIPv6(value) {
    if (!ipv6Alphabet.test(value))
        return false;
    return canParseURL(`http://[${value}]`);
}
const $ZodIPv6 = /*@__PURE__*/ $constructor("$ZodIPv6", (inst, def) => {
    def.pattern ?? (def.pattern = ipv6);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidIPv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "ipv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodCIDRv4 = /*@__PURE__*/ $constructor("$ZodCIDRv4", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv4);
    $ZodStringFormat.init(inst, def);
});
function isValidCIDRv6(value) {
    const parts = value.split("/");
    if (parts.length !== 2)
        return false;
    const [address, prefix] = parts;
    if (!prefix)
        return false;
    const prefixNum = Number(prefix);
    if (`${prefixNum}` !== prefix)
        return false;
    if (prefixNum < 0 || prefixNum > 128)
        return false;
    return isValidIPv6(address);
}
const $ZodCIDRv6 = /*@__PURE__*/ $constructor("$ZodCIDRv6", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv6); // not used for validation
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidCIDRv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "cidrv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
//////////////////////////////   ZodBase64   //////////////////////////////
function isValidBase64(data) {
    if (data === "")
        return true;
    // atob ignores whitespace, so reject it up front.
    if (/\s/.test(data))
        return false;
    if (data.length % 4 !== 0)
        return false;
    try {
        // @ts-ignore
        atob(data);
        return true;
    }
    catch {
        return false;
    }
}
// lax on purpose: the quantified regexes.base64 overflows the regex stack on multi-MB input and its leading ^$| alternation leaks through template-literal composition; isValidBase64 enforces length and padding
const base64Charset = /^[0-9a-zA-Z+/]*={0,2}$/;
const $ZodBase64 = /*@__PURE__*/ $constructor("$ZodBase64", (inst, def) => {
    def.pattern ?? (def.pattern = base64Charset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
//////////////////////////////   ZodBase64URL   //////////////////////////////
// lax on purpose: the quantified regexes.base64url overflows the regex stack on multi-MB input; isValidBase64 enforces length on the padded string
const base64urlCharset = /^[A-Za-z0-9_-]*$/;
function isValidBase64URL(data) {
    if (!base64urlCharset.test(data))
        return false;
    const base64 = data.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/"));
    const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, "=");
    return isValidBase64(padded);
}
const $ZodBase64URL = /*@__PURE__*/ $constructor("$ZodBase64URL", (inst, def) => {
    def.pattern ?? (def.pattern = base64urlCharset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64URL(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64url",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodE164 = /*@__PURE__*/ $constructor("$ZodE164", (inst, def) => {
    def.pattern ?? (def.pattern = e164);
    $ZodStringFormat.init(inst, def);
});
//////////////////////////////   ZodJWT   //////////////////////////////
function isValidJWT(token, algorithm = null) {
    try {
        const tokensParts = token.split(".");
        if (tokensParts.length !== 3)
            return false;
        const [header] = tokensParts;
        if (!header)
            return false;
        // @ts-ignore
        const parsedHeader = JSON.parse(atob(header));
        if ("typ" in parsedHeader && parsedHeader?.typ !== "JWT")
            return false;
        if (!parsedHeader.alg)
            return false;
        if (algorithm && (!("alg" in parsedHeader) || parsedHeader.alg !== algorithm))
            return false;
        return true;
    }
    catch {
        return false;
    }
}
const $ZodJWT = /*@__PURE__*/ $constructor("$ZodJWT", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidJWT(payload.value, def.alg))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "jwt",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodNumber = /*@__PURE__*/ $constructor("$ZodNumber", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = number$1;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Number(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "number" && !Number.isNaN(input) && Number.isFinite(input)) {
            return payload;
        }
        const received = typeof input === "number"
            ? Number.isNaN(input)
                ? "NaN"
                : !Number.isFinite(input)
                    ? String(input)
                    : undefined
            : undefined;
        payload.issues.push({
            expected: "number",
            code: "invalid_type",
            input,
            inst,
            ...(received ? { received } : {}),
        });
        return payload;
    };
});
const $ZodNumberFormat = /*@__PURE__*/ $constructor("$ZodNumberFormat", (inst, def) => {
    $ZodCheckNumberFormat.init(inst, def);
    $ZodNumber.init(inst, def); // no format checks
});
const $ZodBoolean = /*@__PURE__*/ $constructor("$ZodBoolean", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = boolean$1;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Boolean(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "boolean")
            return payload;
        payload.issues.push({
            expected: "boolean",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
});
const $ZodUnknown = /*@__PURE__*/ $constructor("$ZodUnknown", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
});
const $ZodNever = /*@__PURE__*/ $constructor("$ZodNever", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        payload.issues.push({
            expected: "never",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
// an oversized container fails its leading size checks before any element is parsed
function capSize(inst, size) {
    const caps = sizeCaps(inst._zod.def.checks);
    if (!caps.length)
        return;
    const cap = Math.min(...caps.map((c) => c[0]));
    const parse = inst._zod.parse;
    inst._zod.parse = (payload, ctx) => {
        const n = size(payload.value);
        if (n > cap && !ctx?.skipChecks && ctx?.direction !== "backward") {
            for (const [max, ch] of sizeCaps(inst._zod.def.checks)) {
                if (n > max && ch._zod.def.when(payload)) {
                    const start = payload.issues.length;
                    ch._zod.check(payload);
                    // the value is still the raw input, so no later check may read it
                    payload.issues[start].continue = false;
                    attachSchema(payload.issues, start, inst);
                    return payload;
                }
            }
        }
        return parse(payload, ctx);
    };
}
const arraySize = (input) => (Array.isArray(input) ? input.length : -1);
function handleArrayResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
const $ZodArray = /*@__PURE__*/ $constructor("$ZodArray", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                expected: "array",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, Array(input.length), ctx) : Array(input.length);
        const proms = [];
        const abortEarly = ctx?.abortEarly;
        for (let i = 0; i < input.length; i++) {
            const item = input[i];
            const result = def.element._zod.run({
                value: item,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleArrayResult(result, payload, i)));
            }
            else {
                handleArrayResult(result, payload, i);
                // the element's payload is authoritative here, since handleArrayResult forwards every issue; an object's is not, because it drops a failed absent optional
                if (abortEarly && result.issues.length !== 0 && aborted(result))
                    break;
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload; //handleArrayResultsAsync(parseResults, final);
    };
    capSize(inst, arraySize);
});
function handlePropertyResult(result, final, key, input, optin, optout) {
    const isPresent = key in input;
    const isOptionalOut = optout === "optional";
    // The middle rung means "absence permitted, nothing supplied in its place", so an absent key contributes nothing — whatever the schema made of `undefined` is invented, not substituted. Only `optional` reaches this with a value: `defaulted` substitutes, and a schema that isn't optional-out has to keep the key.
    if (!isPresent && isOptionalOut && optin === "optional") {
        return;
    }
    if (result.issues.length) {
        // For optional-in/out schemas, ignore errors on absent keys.
        if (optin !== undefined && isOptionalOut && !isPresent) {
            return;
        }
        final.issues.push(...prefixIssues(key, result.issues));
    }
    if (!isPresent && optin === undefined) {
        if (!result.issues.length) {
            final.issues.push({
                code: "invalid_type",
                expected: "nonoptional",
                input: undefined,
                path: [key],
            });
        }
        return;
    }
    if (result.value === undefined) {
        if (isPresent || (optin === "defaulted" && !isOptionalOut)) {
            final.value[key] = undefined;
        }
    }
    else {
        final.value[key] = result.value;
    }
}
// one shared instance; a fresh [] per schema cost 56 bytes retained
const NO_SYMBOL_KEYS = [];
function normalizeDef(def) {
    const keys = Object.keys(def.shape);
    const ownSymbols = Object.getOwnPropertySymbols(def.shape);
    const symbolKeys = ownSymbols.length ? ownSymbols : NO_SYMBOL_KEYS;
    // aliases `keys` when there are no symbols, so a string-only shape keeps one array
    const allKeys = symbolKeys.length ? [...keys, ...symbolKeys] : keys;
    for (const k of allKeys) {
        if (!def.shape?.[k]?._zod?.traits?.has("$ZodType")) {
            throw new Error(`Invalid element at key "${String(k)}": expected a Zod schema`);
        }
    }
    const okeys = optionalKeys(def.shape);
    return {
        ...def,
        allKeys,
        symbolKeys,
        // string-only: handleCatchall matches it against `for...in`, which never yields a symbol
        keySet: new Set(keys),
        numKeys: keys.length,
        optionalKeys: new Set(okeys),
    };
}
function handleCatchall(proms, input, payload, ctx, def, inst, abortEarly) {
    const unrecognized = [];
    const keySet = def.keySet;
    const _catchall = def.catchall._zod;
    const t = _catchall.def.type;
    const optin = _catchall.optin;
    const optout = _catchall.optout;
    // starts at 0, not the current length: the shape phase already ran and may have aborted
    let seen = 0;
    for (const key in input) {
        if (abortEarly && payload.issues.length !== seen) {
            if (aborted(payload, seen))
                break;
            seen = payload.issues.length;
        }
        // Must precede the __proto__ branch: a declared key is not unrecognized, even though the shape loop deliberately strips __proto__ from the parsed output.
        if (keySet.has(key))
            continue;
        // Don't copy an undeclared __proto__ into the result; assignment to a plain {} would replace the result prototype. But in strict mode it is still an unknown key, so report it before skipping.
        if (key === "__proto__") {
            if (t === "never")
                unrecognized.push(key);
            continue;
        }
        if (t === "never") {
            unrecognized.push(key);
            continue;
        }
        const r = _catchall.run({ value: input[key], issues: [] }, ctx);
        if (r instanceof Promise) {
            proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
        }
        else {
            handlePropertyResult(r, payload, key, input, optin, optout);
        }
    }
    if (unrecognized.length) {
        payload.issues.push({
            code: "unrecognized_keys",
            keys: unrecognized,
            input,
            inst,
            // Describes the shape of the input, not the validity of the parsed value, so it never aborts. The parse still fails; the schema's own checks just get to run first, and an enclosing intersection can reconcile the key against a sibling operand.
            continue: true,
        });
    }
    if (!proms.length)
        return payload;
    return Promise.all(proms).then(() => {
        return payload;
    });
}
const $ZodObject = /*@__PURE__*/ $constructor("$ZodObject", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodType.init(inst, def);
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    // a cloned def carries its source's accessor, which knows the shape it answers from; adopting that keeps the clone's keys readable without running it
    const sh = desc?.get ? desc.get.raw : (def.shape ?? {});
    if (sh) {
        // Freezes the shape on first read, so its getters resolve once and every later read sees the same schemas.
        const get = () => {
            const newSh = { ...sh };
            Object.defineProperty(def, "shape", { value: newSh });
            get.raw = newSh;
            return newSh;
        };
        get.raw = sh;
        Object.defineProperty(def, "shape", { get });
    }
    const _normalized = cached(() => normalizeDef(def));
    defineLazyInternal(inst, "propValues", (zod) => {
        const shape = zod.def.shape;
        const propValues = {};
        for (const key in shape) {
            const field = shape[key]._zod;
            if (field.values) {
                if (!Object.prototype.hasOwnProperty.call(propValues, key)) {
                    assignProp(propValues, key, new Set());
                }
                for (const v of field.values)
                    propValues[key].add(v);
                // An omittable slot reads back as undefined at a discriminator lookup, so it has to claim undefined: two options that can both omit the key are not discriminable on it.
                if (field.optin !== undefined)
                    propValues[key].add(undefined);
            }
        }
        return propValues;
    });
    const isObject$1 = isObject;
    const catchall = def.catchall;
    let value;
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject$1(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
        const proms = [];
        const shape = value.shape;
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const key of value.allKeys) {
            if (abortEarly && payload.issues.length !== seen) {
                if (aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            if (key === "__proto__")
                continue;
            const el = shape[key];
            const optin = el._zod.optin;
            const optout = el._zod.optout;
            const r = el._zod.run({ value: input[key], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
            }
            else {
                handlePropertyResult(r, payload, key, input, optin, optout);
            }
        }
        if (!catchall) {
            return proms.length ? Promise.all(proms).then(() => payload) : payload;
        }
        return handleCatchall(proms, input, payload, ctx, _normalized.value, inst, abortEarly === true);
    };
});
const $ZodObjectJIT = /*@__PURE__*/ $constructor("$ZodObjectJIT", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodObject.init(inst, def);
    const superParse = inst._zod.parse;
    const _normalized = cached(() => normalizeDef(def));
    const memo = globalConfig.memoizer;
    const generateFastpass = (shape) => {
        const normalized = _normalized.value;
        const syms = normalized.symbolKeys;
        // a symbol has no source literal, so it is read as `syms[i]` off the closed-over scope
        const doc = new Doc(["payload", "ctx"], { shape, inst, memo, syms });
        const parseStr = (k) => `shape[${k}]._zod.run({ value: input[${k}], issues: [] }, ctx)`;
        // prefixes in place, like util.prefixIssues. newResult must land before the early return: a catchall runs after this and would otherwise write onto the caller's input
        const prefixStr = (id, k) => `
          let ${id}_ab = false;
          for (let i = 0; i < ${id}.issues.length; i++) {
            const iss = ${id}.issues[i];
            iss.path = iss.path ? [${k}, ...iss.path] : [${k}];
            payload.issues.push(iss);
            if (iss.continue !== true) ${id}_ab = true;
          }
          if (${id}_ab && ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }`;
        doc.write(`const input = payload.value;`);
        const ids = Object.create(null);
        let counter = 0;
        for (const key of normalized.allKeys) {
            ids[key] = `key_${counter++}`;
        }
        // A: preserve key order {
        doc.write(memo ? `const newResult = memo.alloc(inst, payload, {}, ctx);` : `const newResult = {};`);
        for (const key of normalized.allKeys) {
            if (key === "__proto__")
                continue;
            const id = ids[key];
            const k = typeof key === "symbol" ? `syms[${syms.indexOf(key)}]` : esc(key);
            const isPresent = `${k} in input`;
            const schema = shape[key];
            const optin = schema?._zod?.optin;
            const isOptionalIn = optin !== undefined;
            const isOptionalOut = schema?._zod?.optout === "optional";
            doc.write(`const ${id} = ${parseStr(k)};`);
            if (isOptionalIn && isOptionalOut) {
                // For optional-in/out schemas, ignore errors on absent keys — and, like the interpreted path, drop the value produced alongside them. The middle rung goes further: it permits absence without supplying anything in its place, so an absent key contributes nothing at all.
                const assign = optin === "optional" ? `${id}_present` : `${id}.value !== undefined || ${id}_present`;
                doc.write(`
        const ${id}_present = ${isPresent};
        if (!${id}.issues.length || ${id}_present) {
          if (${id}.issues.length) {${prefixStr(id, k)}
          }

          if (${assign}) {
            newResult[${k}] = ${id}.value;
          }
        }

      `);
            }
            else if (!isOptionalIn) {
                doc.write(`
        const ${id}_present = ${isPresent};
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
        if (!${id}_present && !${id}.issues.length) {
          payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: undefined,
            path: [${k}]
          });
          if (ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }
        }

        if (${id}_present) {
          newResult[${k}] = ${id}.value;
        }

      `);
            }
            else {
                doc.write(`
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
      `);
                if (optin === "defaulted") {
                    doc.write(`newResult[${k}] = ${id}.value;`);
                }
                else {
                    doc.write(`
        if (${id}.value !== undefined || ${isPresent}) {
          newResult[${k}] = ${id}.value;
        }
      `);
                }
            }
        }
        doc.write(`payload.value = newResult;`);
        doc.write(`return payload;`);
        // closing `shape` in is what pays: turbofan specializes the parser against that one shape object, so every `shape[k]._zod.run` folds to a known callee. as a parameter it stays a generic load and measures 13% slower even with the forwarding frame gone
        return doc.compile();
    };
    let fastpass;
    const isObject$1 = isObject;
    const jit = !globalConfig.jitless;
    const allowsEval$1 = allowsEval;
    const fastEnabled = jit && allowsEval$1.value; // && !def.catchall;
    const catchall = def.catchall;
    let value;
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject$1(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true) {
            // always synchronous
            if (!fastpass)
                fastpass = generateFastpass(def.shape);
            payload = fastpass(payload, ctx);
            if (!catchall)
                return payload;
            return handleCatchall([], input, payload, ctx, value, inst, ctx?.abortEarly === true);
        }
        return superParse(payload, ctx);
    };
});
function handleUnionResults(results, final, inst, ctx) {
    for (const result of results) {
        if (result.issues.length === 0) {
            final.value = result.value;
            return final;
        }
    }
    const nonaborted = results.filter((r) => !aborted(r));
    if (nonaborted.length === 1) {
        final.value = nonaborted[0].value;
        return nonaborted[0];
    }
    final.issues.push({
        code: "invalid_union",
        input: final.value,
        inst,
        errors: results.map((result) => result.issues.map((iss) => finalizeIssue(iss, ctx, config()))),
    });
    return final;
}
const $ZodUnion = /*@__PURE__*/ $constructor("$ZodUnion", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.options.some((o) => o._zod.optin === "defaulted")
        ? "defaulted"
        : zod.def.options.some((o) => o._zod.optin !== undefined)
            ? "optional"
            : undefined);
    defineLazyInternal(inst, "optout", (zod) => zod.def.options.some((o) => o._zod.optout === "optional") ? "optional" : undefined);
    defineLazyInternal(inst, "values", (zod) => {
        if (zod.def.options.every((o) => o._zod.values)) {
            return new Set(zod.def.options.flatMap((option) => Array.from(option._zod.values)));
        }
        return undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        if (zod.def.options.every((o) => o._zod.pattern)) {
            const patterns = zod.def.options.map((o) => o._zod.pattern);
            return new RegExp(`^(${patterns.map((p) => cleanRegex(p.source)).join("|")})$`);
        }
        return undefined;
    });
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                if (result.issues.length === 0)
                    return result;
                results.push(result);
            }
        }
        if (!async)
            return handleUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleUnionResults(results, payload, inst, ctx);
        });
    };
});
const $ZodIntersection = /*@__PURE__*/ $constructor("$ZodIntersection", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        const left = def.left._zod.run({ value: input, issues: [] }, ctx);
        const right = def.right._zod.run({ value: input, issues: [] }, ctx);
        const async = left instanceof Promise || right instanceof Promise;
        if (async) {
            return Promise.all([left, right]).then(([left, right]) => {
                return handleIntersectionResults(payload, left, right);
            });
        }
        return handleIntersectionResults(payload, left, right);
    };
});
function mergeValues(a, b) {
    // const aType = parse.t(a);
    // const bType = parse.t(b);
    if (a === b) {
        return { valid: true, data: a };
    }
    if (a instanceof Date && b instanceof Date && +a === +b) {
        return { valid: true, data: a };
    }
    if (isPlainObject(a) && isPlainObject(b)) {
        const bKeys = Object.keys(b);
        const sharedKeys = Object.keys(a).filter((key) => bKeys.indexOf(key) !== -1);
        const newObj = { ...a, ...b };
        if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
            delete newObj.__proto__;
        for (const key of sharedKeys) {
            if (key === "__proto__")
                continue;
            const sharedValue = mergeValues(a[key], b[key]);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [key, ...sharedValue.mergeErrorPath],
                };
            }
            newObj[key] = sharedValue.data;
        }
        return { valid: true, data: newObj };
    }
    if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) {
            return { valid: false, mergeErrorPath: [] };
        }
        const newArray = [];
        for (let index = 0; index < a.length; index++) {
            const itemA = a[index];
            const itemB = b[index];
            const sharedValue = mergeValues(itemA, itemB);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [index, ...sharedValue.mergeErrorPath],
                };
            }
            newArray.push(sharedValue.data);
        }
        return { valid: true, data: newArray };
    }
    return { valid: false, mergeErrorPath: [] };
}
function handleIntersectionResults(result, left, right) {
    // Track which side(s) reject each key. A key rejection is reported only when BOTH sides reject it, so a key owned by one branch survives the other's key schema. strictObject reports these as unrecognized_keys; a record with an open key schema reports one invalid_key per key.
    const unrecKeys = new Map();
    let unrecIssue;
    const keyIssues = new Map();
    const collect = (iss, side) => {
        let keys;
        if (iss.code === "unrecognized_keys" && !iss.path?.length) {
            unrecIssue ?? (unrecIssue = iss);
            keys = iss.keys;
        }
        else if (iss.code === "invalid_key" && iss.origin === "record" && iss.path?.length === 1) {
            const k = String(iss.path[0]);
            if (!keyIssues.has(k))
                keyIssues.set(k, iss);
            keys = [k];
        }
        else {
            return false;
        }
        for (const k of keys) {
            if (!unrecKeys.has(k))
                unrecKeys.set(k, {});
            unrecKeys.get(k)[side] = true;
        }
        return true;
    };
    for (const iss of left.issues) {
        if (!collect(iss, "l"))
            result.issues.push(iss);
    }
    for (const iss of right.issues) {
        if (!collect(iss, "r"))
            result.issues.push(iss);
    }
    // Report only keys rejected by BOTH sides
    const bothKeys = [...unrecKeys].filter(([, f]) => f.l && f.r).map(([k]) => k);
    if (bothKeys.length) {
        const aggregated = unrecIssue ? bothKeys.filter((k) => unrecIssue.keys.includes(k)) : [];
        if (aggregated.length)
            result.issues.push({ ...unrecIssue, keys: aggregated });
        for (const k of bothKeys) {
            if (!aggregated.includes(k) && keyIssues.has(k))
                result.issues.push(keyIssues.get(k));
        }
    }
    const merged = mergeValues(left.value, right.value);
    if (!merged.valid) {
        if (aborted(result))
            return result;
        throw new Error(`Unmergable intersection. Error path: ` + `${JSON.stringify(merged.mergeErrorPath)}`);
    }
    result.value = merged.data;
    return result;
}
const $ZodRecord = /*@__PURE__*/ $constructor("$ZodRecord", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!isPlainObject(input)) {
            payload.issues.push({
                expected: "record",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        // no guard in either loop below: a record's invalid_key aborts but an enclosing intersection can reconcile it, so a stopped loop hides keys the sibling does not own and the intersection then rejects nothing
        const proms = [];
        const values = def.keyType._zod.values;
        if (values && !def.partial) {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            const recordKeys = new Set();
            for (const key of values) {
                if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
                    recordKeys.add(typeof key === "number" ? key.toString() : key);
                    // A declared __proto__ is stripped but is not an unrecognized key.
                    if (key === "__proto__")
                        continue;
                    const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                    if (keyResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (keyResult.issues.length) {
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                        continue;
                    }
                    const outKey = keyResult.value;
                    if (outKey === "__proto__")
                        continue;
                    const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                    if (result instanceof Promise) {
                        proms.push(result.then((result) => {
                            if (result.issues.length) {
                                payload.issues.push(...prefixIssues(key, result.issues));
                            }
                            payload.value[outKey] = result.value;
                        }));
                    }
                    else {
                        if (result.issues.length) {
                            payload.issues.push(...prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }
                }
            }
            let unrecognized;
            for (const key in input) {
                if (!recordKeys.has(key)) {
                    if (def.mode === "loose") {
                        // skip __proto__ so it can't replace the result prototype via the assignment setter on the plain {} we build into
                        if (key === "__proto__")
                            continue;
                        payload.value[key] = input[key];
                    }
                    else {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        else {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            // An enumerable key schema declares which keys the record owns, so a key outside the set is unrecognized. A non-enumerable one (regex, refine) is a constraint every key must satisfy, so a failing key is invalid. Only the former is reconcilable against the other side of an intersection.
            let unrecognized;
            // Reflect.ownKeys for Symbol-key support; filter non-enumerable to match z.object()
            for (const key of Reflect.ownKeys(input)) {
                if (key === "__proto__")
                    continue;
                if (!Object.prototype.propertyIsEnumerable.call(input, key))
                    continue;
                let keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                if (keyResult instanceof Promise) {
                    throw new Error("Async schemas not supported in object keys currently");
                }
                // Numeric string fallback: if key is a numeric string and failed, retry with Number(key). This handles z.number(), z.literal([1, 2, 3]), and unions containing numeric literals
                const checkNumericKey = typeof key === "string" && number$1.test(key) && keyResult.issues.length;
                if (checkNumericKey) {
                    const retryResult = def.keyType._zod.run({ value: Number(key), issues: [] }, ctx);
                    if (retryResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (retryResult.issues.length === 0) {
                        keyResult = retryResult;
                    }
                }
                if (keyResult.issues.length) {
                    if (def.mode === "loose") {
                        // Pass through unchanged
                        payload.value[key] = input[key];
                    }
                    else if (values) {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                    else {
                        // Default "strict" behavior: error on invalid key
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                    }
                    continue;
                }
                // the guard above tests the raw input key, but the key schema can normalize an ordinary key into __proto__; re-check the key we actually write under
                const outKey = keyResult.value;
                if (outKey === "__proto__")
                    continue;
                const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((result) => {
                        if (result.issues.length) {
                            payload.issues.push(...prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }));
                }
                else {
                    if (result.issues.length) {
                        payload.issues.push(...prefixIssues(key, result.issues));
                    }
                    payload.value[outKey] = result.value;
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload;
    };
});
const $ZodEnum = /*@__PURE__*/ $constructor("$ZodEnum", (inst, def) => {
    $ZodType.init(inst, def);
    const values = getEnumValues(def.entries);
    const valuesSet = new Set(values);
    inst._zod.values = valuesSet;
    defineLazyInternal(inst, "pattern", (zod) => {
        const patternValues = getEnumValues(zod.def.entries).filter((k) => propertyKeyTypes.has(typeof k));
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(patternValues.length ? `^(${patternValues.map((o) => escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (valuesSet.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values,
            input,
            inst,
        });
        return payload;
    };
});
const $ZodTransform = /*@__PURE__*/ $constructor("$ZodTransform", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "optional";
    globalConfig.memoizer?.guard(inst);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        const _out = def.transform(payload.value, payload);
        if (ctx.async) {
            const output = _out instanceof Promise ? _out : Promise.resolve(_out);
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        if (_out instanceof Promise) {
            throw new $ZodAsyncError();
        }
        payload.value = _out;
        return payload;
    };
});
function handleOptionalResult(payload, result) {
    // A substituting schema that still failed has no usable answer; yield undefined. Its issues are simply dropped: it ran on a payload of its own, so there is no shared array to truncate and nothing of the caller's to lose with it.
    payload.value = result.issues.length ? undefined : result.value;
    return payload;
}
const $ZodOptional = /*@__PURE__*/ $constructor("$ZodOptional", (inst, def) => {
    $ZodType.init(inst, def);
    // .optional() propagates absence rather than substituting for it, so a defaulted inner keeps its rung.
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    inst._zod.optout = "optional";
    defineLazyInternal(inst, "values", (zod) => {
        const values = zod.def.innerType._zod.values;
        return values ? new Set([...values, undefined]) : undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)})?$`) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        if (payload.value === undefined) {
            // Only the top rung substitutes a value for absence; everything else leaves it intact, which is what .optional() means.
            if (def.innerType._zod.optin !== "defaulted")
                return payload;
            // Its own payload, for the same reason $ZodCatch gets one: a pipe forwards an unrecognized key through the caller's issues array, and this must not read that as the substituting schema failing and drop it.
            const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
            if (result instanceof Promise)
                return result.then((result) => handleOptionalResult(payload, result));
            return handleOptionalResult(payload, result);
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodExactOptional = /*@__PURE__*/ $constructor("$ZodExactOptional", (inst, def) => {
    // Call parent init - inherits optin/optout = "optional"
    $ZodOptional.init(inst, def);
    // Override values/pattern to NOT add undefined
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "pattern", (zod) => zod.def.innerType._zod.pattern);
    // Override parse to just delegate (no undefined handling)
    inst._zod.parse = (payload, ctx) => {
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNullable = /*@__PURE__*/ $constructor("$ZodNullable", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)}|null)$`) : undefined;
    });
    defineLazyInternal(inst, "values", (zod) => {
        return zod.def.innerType._zod.values ? new Set([...zod.def.innerType._zod.values, null]) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        // Forward direction (decode): allow null to pass through
        if (payload.value === null)
            return payload;
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodDefault = /*@__PURE__*/ $constructor("$ZodDefault", (inst, def) => {
    $ZodType.init(inst, def);
    // inst._zod.qin = "true";
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply defaults for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
            /**
             * $ZodDefault returns the default value immediately in forward direction.
             * It doesn't pass the default value into the validator ("prefault"). There's no reason to pass the default value through validation. The validity of the default is enforced by TypeScript statically. Otherwise, it's the responsibility of the user to ensure the default is valid. In the case of pipes with divergent in/out types, you can specify the default on the `in` schema of your ZodPipe to set a "prefault" for the pipe.   */
            return payload;
        }
        // Forward direction: continue with default handling
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleDefaultResult(result, def));
        }
        return handleDefaultResult(result, def);
    };
});
function handleDefaultResult(payload, def) {
    if (payload.value === undefined) {
        payload.value = def.defaultValue;
    }
    return payload;
}
const $ZodPrefault = /*@__PURE__*/ $constructor("$ZodPrefault", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply prefault for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNonOptional = /*@__PURE__*/ $constructor("$ZodNonOptional", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => {
        const v = zod.def.innerType._zod.values;
        return v ? new Set([...v].filter((x) => x !== undefined)) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleNonOptionalResult(result, inst));
        }
        return handleNonOptionalResult(result, inst);
    };
});
function handleNonOptionalResult(payload, inst) {
    if (!payload.issues.length && payload.value === undefined) {
        payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: payload.value,
            inst,
        });
    }
    return payload;
}
function handleCatchResult(payload, result, def, ctx) {
    if (!result.issues.length) {
        payload.value = result.value;
        // The value carries up, so the flag describing it has to carry with it: a back-edge into a node still being parsed must not be frozen by an enclosing readonly, and its checks belong to the node itself. Guarded so the ordinary case adds no own property.
        if (result.memo)
            payload.memo = true;
        return payload;
    }
    // Spread the inner's own payload, not ours: `value` has to stay the input the catch was handed, and the inner ran on a payload of its own so its issues are already private to this call.
    payload.value = def.catchValue({
        ...result,
        value: payload.value,
        error: {
            issues: result.issues.map((iss) => finalizeIssue(iss, ctx, config())),
        },
        input: payload.value,
    });
    return payload;
}
const $ZodCatch = /*@__PURE__*/ $constructor("$ZodCatch", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply catch logic
        const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleCatchResult(payload, result, def, ctx));
        }
        return handleCatchResult(payload, result, def, ctx);
    };
});
const $ZodPipe = /*@__PURE__*/ $constructor("$ZodPipe", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handlePipeResult(right, def.in, ctx));
            }
            return handlePipeResult(right, def.in, ctx);
        }
        const left = def.in._zod.run(payload, ctx);
        if (left instanceof Promise) {
            return left.then((left) => handlePipeResult(left, def.out, ctx));
        }
        return handlePipeResult(left, def.out, ctx);
    };
});
function handlePipeResult(left, next, ctx) {
    // Any issue stops the pipe, so a failing refinement never feeds its transform. An unrecognized key is the exception: it describes the input's extra properties, not the value being piped, and an enclosing intersection may yet reconcile it.
    if (left.issues.some((iss) => iss.code !== "unrecognized_keys")) {
        // prevent further checks
        left.aborted = true;
        return left;
    }
    return next._zod.run({ value: left.value, issues: left.issues }, ctx);
}
const $ZodReadonly = /*@__PURE__*/ $constructor("$ZodReadonly", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.innerType._zod.propValues);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType?._zod?.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType?._zod?.optout);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then(handleReadonlyResult);
        }
        return handleReadonlyResult(result);
    };
});
function handleReadonlyResult(payload) {
    // A repeat visit hands back a node that is still being built; freezing it here would make the rest of its keys fail to assign.
    if (!payload.memo)
        payload.value = Object.freeze(payload.value);
    return payload;
}
const $ZodCustom = /*@__PURE__*/ $constructor("$ZodCustom", (inst, def) => {
    $ZodCheck.init(inst, def);
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _) => {
        return payload;
    };
    inst._zod.check = (payload) => {
        const input = payload.value;
        const r = def.fn(input);
        if (r instanceof Promise) {
            return r.then((r) => handleRefineResult(r, payload, input, inst));
        }
        handleRefineResult(r, payload, input, inst);
        return;
    };
});
function handleRefineResult(result, payload, input, inst) {
    if (!result) {
        const _iss = {
            code: "custom",
            input,
            inst, // incorporates params.error into issue reporting
            path: [...(inst._zod.def.path ?? [])], // incorporates params.error into issue reporting
            continue: !inst._zod.def.abort,
            // params: inst._zod.def.params,
        };
        if (inst._zod.def.params)
            _iss.params = inst._zod.def.params;
        payload.issues.push(issue(_iss));
    }
}

class $ZodCyclicError extends Error {
    constructor() {
        super(`Cannot parse a reference cycle that closes through a transform`);
        this.name = "ZodCyclicError";
    }
}
/** Keyed off the context object every schema in one parse call already shares. */
const STATE = "~memo";
const NO_ISSUES = [];
// a value a cycle can close through
function isRef(value) {
    return value !== null && typeof value === "object";
}
// Receivers prefix paths in place, so the cache and every hand-out need their own copies.
function cloneIssues(issues) {
    return issues.map((iss) => (iss.path ? { ...iss, path: iss.path.slice() } : { ...iss }));
}
const recursive = /*@__PURE__*/ new WeakMap();
/** What the walk established, in order of certainty: ordered so the strongest answer among children wins. */
const NONE = 0;
const ASSUMED = 1;
const PROVEN = 2;
/** Whether this schema's subtree contains a cycle, so one parse can re-enter it. */
function isRecursive(inst, stack, resolve) {
    const cached = recursive.get(inst);
    if (cached !== undefined)
        return cached ? PROVEN : NONE;
    // Relative to the walk in progress, so not cached.
    if (stack.has(inst))
        return PROVEN;
    stack.add(inst);
    let result = NONE;
    const check = (child) => {
        if (result !== PROVEN && child?._zod) {
            const answer = isRecursive(child, stack);
            if (answer > result)
                result = answer;
        }
    };
    // `Reflect.ownKeys` rather than `Object.keys`, so a cycle through a declared symbol key is still seen
    const shape = (sh, spread) => {
        let answer = NONE;
        for (const key of Reflect.ownKeys(sh)) {
            const desc = Object.getOwnPropertyDescriptor(sh, key);
            // an object resolves its shape by spread, so a key it does not enumerate is never parsed; `z.properties` reads every own key and so keeps them all
            if (!desc.enumerable)
                continue;
            // resolving runs user code, and a factory mints a fresh subtree per read, so an edge the walk can't follow counts as a cycle
            const child = desc.get ? ASSUMED : desc.value?._zod ? isRecursive(desc.value, stack) : NONE;
            if (child > answer)
                answer = child;
        }
        return answer;
    };
    const merge = (answer) => {
        if (answer > result)
            result = answer;
    };
    const def = inst._zod.def;
    const kind = def.type;
    switch (kind) {
        case "object": {
            const raw = rawShape(def);
            // a def with no raw shape answers `shape` from an accessor of its own, and running that can mint a whole fresh subtree
            merge(raw ? shape(raw) : ASSUMED);
            check(def.catchall);
            break;
        }
        case "array":
            check(def.element);
            break;
        case "tuple":
            for (const el of def.items)
                check(el);
            check(def.rest);
            break;
        case "record":
        case "map":
            check(def.keyType);
            check(def.valueType);
            break;
        case "set":
            check(def.valueType);
            break;
        case "union":
            for (const el of def.options)
                check(el);
            break;
        case "intersection":
            check(def.left);
            check(def.right);
            break;
        case "optional":
        case "nullable":
        case "default":
        case "prefault":
        case "catch":
        case "readonly":
        case "nonoptional":
        case "promise":
        case "success":
            check(def.innerType);
            break;
        case "pipe":
            check(def.in);
            check(def.out);
            break;
        case "function":
            check(def.input);
            check(def.output);
            break;
        // `$ZodLazy` caches its inner on the def, so a resolved edge is followed exactly
        case "lazy": {
            const inner = def._cachedInner ?? (undefined);
            // walked with resolution off: one hop sees past the deferral, and a lazy that yields only another unresolved lazy is generative, so it stops there
            merge(inner ? isRecursive(inner, stack) : ASSUMED);
            break;
        }
        // a leaf by choice: `parts` are regex fragments, not data positions
        case "template_literal":
        // leaves
        case "string":
        case "number":
        case "int":
        case "boolean":
        case "bigint":
        case "symbol":
        case "undefined":
        case "null":
        case "void":
        case "never":
        case "any":
        case "unknown":
        case "date":
        case "nan":
        case "enum":
        case "literal":
        case "file":
        case "transform":
        case "custom":
            break;
        default: {
            // a user-defined kind can still hold children, and only its author knows where, so fall back to scanning the def — skipping accessors, since reading one can run user code
            for (const key in def) {
                const desc = Object.getOwnPropertyDescriptor(def, key);
                if (!desc || desc.get)
                    continue;
                const value = desc.value;
                if (!value || typeof value !== "object")
                    continue;
                if (value._zod)
                    check(value);
                else if (Array.isArray(value))
                    for (const el of value)
                        check(el);
            }
        }
    }
    stack.delete(inst);
    return settle(inst, result);
}
/** An assumed answer must not outlive the resolution that settles it, so only a certain one is cached. */
function settle(inst, answer) {
    if (answer !== ASSUMED)
        recursive.set(inst, answer === PROVEN);
    return answer;
}
function bucketFor(state, inst) {
    let bucket = state.buckets.get(inst);
    if (!bucket) {
        bucket = new WeakMap();
        state.buckets.set(inst, bucket);
    }
    return bucket;
}
// Set immediately before delegating to core and cleared immediately after, so `alloc` registers only for a visit this module is driving.
let handoff;
// Allocated but unfinished entries. `alloc` and the matching pop both happen in the synchronous part of a parse, so they nest even when children are async, and one stack serves every schema.
const open = [];
const memo = {
    alloc(_inst, payload, empty) {
        const bucket = handoff;
        if (!bucket)
            return empty;
        handoff = undefined;
        const entry = { value: empty, issues: null };
        bucket.set(payload.value, entry);
        open.push(entry);
        return empty;
    },
    guard(inst) {
        var _a;
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                // The value is a placeholder a back-edge is still waiting on, so the cycle closes through this transform. Its output can't exist in time to bind.
                if (ctx.direction !== "backward" && isBackEdge(ctx, payload.value))
                    throw new $ZodCyclicError();
                return base(payload, ctx);
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
    attach(inst) {
        var _a;
        let isRecursiveInst;
        let rechecked = false;
        // a recursive schema is re-entered many times per parse and its bucket never changes
        let lastCtx;
        let lastBucket;
        // Wraps `parse` in a deferred so it sees the container's final parse. Core's own deferred copies `parse` into `run` when there are no checks, and it ran first, so `run` is patched to match; with checks, `run` reads `parse` dynamically.
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                if (isRecursiveInst === undefined) {
                    const walked = isRecursive(inst, new Set());
                    if (walked === NONE) {
                        // Nothing here can ever fire, so take it back out.
                        inst._zod.parse = base;
                        if (inst._zod.run === wrapped)
                            inst._zod.run = base;
                        return base(payload, ctx);
                    }
                    // this parse resolves the deferred edges on its own path, so ask once more before latching
                    if (walked === PROVEN || rechecked)
                        isRecursiveInst = true;
                    else
                        rechecked = true;
                }
                const input = payload.value;
                if (!isRef(input))
                    return base(payload, ctx);
                let state = ctx[STATE];
                if (!state) {
                    state = { buckets: new WeakMap(), backEdges: undefined };
                    ctx[STATE] = state;
                }
                let bucket;
                if (lastCtx === ctx) {
                    bucket = lastBucket;
                }
                else {
                    bucket = bucketFor(state, inst);
                    lastCtx = ctx;
                    lastBucket = bucket;
                }
                const hit = bucket.get(input);
                if (hit) {
                    payload.value = hit.value;
                    if (hit.issues) {
                        if (hit.issues.length)
                            payload.issues.push(...cloneIssues(hit.issues));
                    }
                    else {
                        // Still being parsed: its own checks cover it, so skip them here.
                        payload.memo = true;
                        state.backEdges ?? (state.backEdges = new WeakSet());
                        state.backEdges.add(hit.value);
                    }
                    return payload;
                }
                handoff = bucket;
                const depth = open.length;
                const result = base(payload, ctx);
                handoff = undefined;
                // A container that rejected its input outright allocated nothing.
                const entry = open.length > depth ? open.pop() : undefined;
                // Both paths written out so the sync one allocates no closure. It runs once per node, and capturing here cost more than everything else combined.
                if (result instanceof Promise) {
                    return result.then((r) => {
                        if (entry)
                            entry.issues = r.issues.length ? cloneIssues(r.issues) : NO_ISSUES;
                        return r;
                    });
                }
                if (entry)
                    entry.issues = result.issues.length ? cloneIssues(result.issues) : NO_ISSUES;
                return result;
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
};
/** The memoizer that gives containers cycle support. `zod` installs it by default; `zod/mini` opts in with `config({ memoizer: memoizer() })`. */
function memoizer() {
    return memo;
}
/** Whether this value is a node a back-edge resolved to before it finished. */
function isBackEdge(ctx, value) {
    const backEdges = ctx[STATE]?.backEdges;
    return backEdges !== undefined && isRef(value) && backEdges.has(value);
}

const error$1 = () => {
    const Sizable = {
        string: { unit: "characters", verb: "to have" },
        file: { unit: "bytes", verb: "to have" },
        array: { unit: "items", verb: "to have" },
        set: { unit: "items", verb: "to have" },
        map: { unit: "entries", verb: "to have" },
    };
    function getSizing(origin) {
        return Sizable[origin] ?? null;
    }
    const FormatDictionary = {
        regex: "input",
        email: "email address",
        url: "URL",
        emoji: "emoji",
        uuid: "UUID",
        uuidv4: "UUIDv4",
        uuidv6: "UUIDv6",
        nanoid: "nanoid",
        guid: "GUID",
        cuid: "cuid",
        cuid2: "cuid2",
        ulid: "ULID",
        xid: "XID",
        ksuid: "KSUID",
        datetime: "ISO datetime",
        date: "ISO date",
        time: "ISO time",
        duration: "ISO duration",
        ipv4: "IPv4 address",
        ipv6: "IPv6 address",
        mac: "MAC address",
        cidrv4: "IPv4 range",
        cidrv6: "IPv6 range",
        base64: "base64-encoded string",
        base64url: "base64url-encoded string",
        json_string: "JSON string",
        e164: "E.164 number",
        currency_code: "currency code",
        credit_card: "credit card number",
        iban: "IBAN",
        jwt: "JWT",
        template_literal: "input",
    };
    // type names: missing keys = do not translate (use raw value via ?? fallback)
    const TypeDictionary = {
        // Compatibility: "nan" -> "NaN" for display
        nan: "NaN",
        // All other type names omitted - they fall back to raw values via ?? operator
    };
    function getTypeName(type, input) {
        if (type === "number" && typeof input === "number" && !Number.isFinite(input)) {
            return String(input);
        }
        return TypeDictionary[type] ?? type;
    }
    return (issue) => {
        switch (issue.code) {
            case "invalid_type": {
                const expected = getTypeName(issue.expected);
                const receivedType = parsedType(issue.input);
                const received = getTypeName(receivedType, issue.input);
                return `Invalid input: expected ${expected}, received ${received}`;
            }
            case "invalid_value":
                if (issue.values.length === 1)
                    return `Invalid input: expected ${stringifyPrimitive(issue.values[0])}`;
                return `Invalid option: expected one of ${joinValues(issue.values, "|")}`;
            case "too_big": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? "<=" : "<";
                const sizing = getSizing(issue.origin);
                if (sizing)
                    return `Too big: expected ${issue.origin ?? "value"} to have ${adj}${issue.maximum.toString()} ${sizing.unit ?? "elements"}`;
                return `Too big: expected ${issue.origin ?? "value"} to be ${adj}${issue.maximum.toString()}`;
            }
            case "too_small": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? ">=" : ">";
                const sizing = getSizing(issue.origin);
                if (sizing) {
                    return `Too small: expected ${issue.origin} to have ${adj}${issue.minimum.toString()} ${sizing.unit}`;
                }
                return `Too small: expected ${issue.origin} to be ${adj}${issue.minimum.toString()}`;
            }
            case "invalid_format": {
                const _issue = issue;
                if (_issue.format === "starts_with") {
                    return `Invalid string: must start with "${_issue.prefix}"`;
                }
                if (_issue.format === "ends_with")
                    return `Invalid string: must end with "${_issue.suffix}"`;
                if (_issue.format === "includes")
                    return `Invalid string: must include "${_issue.includes}"`;
                if (_issue.format === "regex")
                    return `Invalid string: must match pattern ${_issue.pattern}`;
                return `Invalid ${FormatDictionary[_issue.format] ?? issue.format}`;
            }
            case "not_multiple_of":
                return `Invalid number: must be a multiple of ${issue.divisor}`;
            case "unrecognized_keys":
                return `Unrecognized key${issue.keys.length > 1 ? "s" : ""}: ${joinValues(issue.keys, ", ")}`;
            case "invalid_key":
                return `Invalid key in ${issue.origin}`;
            case "invalid_union":
                if (issue.options && Array.isArray(issue.options) && issue.options.length > 0) {
                    const opts = issue.options.map((o) => `'${o}'`).join(" | ");
                    return `Invalid discriminator value. Expected ${opts}`;
                }
                if (issue.inclusive === false) {
                    return "Invalid input: more than one option matched";
                }
                return "Invalid input";
            case "invalid_element":
                return `Invalid value in ${issue.origin}`;
            default:
                return `Invalid input`;
        }
    };
};
function en () {
    return {
        localeError: error$1(),
    };
}

var _a;
class $ZodRegistry {
    constructor() {
        this._map = new WeakMap();
        this._idmap = new Map();
    }
    add(schema, ..._meta) {
        const meta = _meta[0];
        this._map.set(schema, meta);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.set(meta.id, schema);
        }
        return this;
    }
    clear() {
        this._map = new WeakMap();
        this._idmap = new Map();
        return this;
    }
    remove(schema) {
        const meta = this._map.get(schema);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.delete(meta.id);
        }
        this._map.delete(schema);
        return this;
    }
    get(schema) {
        // return this._map.get(schema) as any;
        // inherit metadata
        const p = schema._zod.parent;
        if (p) {
            const pm = { ...(this.get(p) ?? {}) };
            delete pm.id; // do not inherit id
            const f = { ...pm, ...this._map.get(schema) };
            return Object.keys(f).length ? f : undefined;
        }
        return this._map.get(schema);
    }
    has(schema) {
        return this._map.has(schema);
    }
}
// registries
function registry() {
    return new $ZodRegistry();
}
(_a = globalThis).__zod_globalRegistry ?? (_a.__zod_globalRegistry = registry());
const globalRegistry = globalThis.__zod_globalRegistry;

function snapshotChecks(def) {
    if (def.checks)
        def.checks = [...def.checks];
    return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class, params) {
    return new Class(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _email(Class, params) {
    return new Class({
        type: "string",
        format: "email",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _guid(Class, params) {
    return new Class({
        type: "string",
        format: "guid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuid(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv4(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v4",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv6(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v6",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv7(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v7",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _url(Class, params) {
    return new Class({
        type: "string",
        format: "url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _emoji(Class, params) {
    return new Class({
        type: "string",
        format: "emoji",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nanoid(Class, params) {
    return new Class({
        type: "string",
        format: "nanoid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link _cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
// @__NO_SIDE_EFFECTS__
function _cuid(Class, params) {
    return new Class({
        type: "string",
        format: "cuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cuid2(Class, params) {
    return new Class({
        type: "string",
        format: "cuid2",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ulid(Class, params) {
    return new Class({
        type: "string",
        format: "ulid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _xid(Class, params) {
    return new Class({
        type: "string",
        format: "xid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ksuid(Class, params) {
    return new Class({
        type: "string",
        format: "ksuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv4(Class, params) {
    return new Class({
        type: "string",
        format: "ipv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv6(Class, params) {
    return new Class({
        type: "string",
        format: "ipv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv4(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv6(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64(Class, params) {
    return new Class({
        type: "string",
        format: "base64",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64url(Class, params) {
    return new Class({
        type: "string",
        format: "base64url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _e164(Class, params) {
    return new Class({
        type: "string",
        format: "e164",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _jwt(Class, params) {
    return new Class({
        type: "string",
        format: "jwt",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDateTime(Class, params) {
    return new Class({
        type: "string",
        format: "datetime",
        check: "string_format",
        offset: false,
        local: false,
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDate(Class, params) {
    return new Class({
        type: "string",
        format: "date",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoTime(Class, params) {
    return new Class({
        type: "string",
        format: "time",
        check: "string_format",
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDuration(Class, params) {
    return new Class({
        type: "string",
        format: "duration",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _number(Class, params) {
    return new Class(snapshotChecks({ type: "number", checks: [], ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _int(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "safeint",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class, params) {
    return new Class({
        type: "boolean",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _unknown(Class) {
    return new Class({
        type: "unknown",
    });
}
// @__NO_SIDE_EFFECTS__
function _never(Class, params) {
    return new Class({
        type: "never",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lt(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _lte(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}
// @__NO_SIDE_EFFECTS__
function _gt(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _gte(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}
// @__NO_SIDE_EFFECTS__
function _multipleOf(value, params) {
    return new $ZodCheckMultipleOf({
        check: "multiple_of",
        ...normalizeParams(params),
        value,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxLength(maximum, params) {
    const ch = new $ZodCheckMaxLength({
        check: "max_length",
        ...normalizeParams(params),
        maximum,
    });
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _minLength(minimum, params) {
    return new $ZodCheckMinLength({
        check: "min_length",
        ...normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _length(length, params) {
    return new $ZodCheckLengthEquals({
        check: "length_equals",
        ...normalizeParams(params),
        length,
    });
}
// @__NO_SIDE_EFFECTS__
function _regex(pattern, params) {
    return new $ZodCheckRegex({
        check: "string_format",
        format: "regex",
        ...normalizeParams(params),
        pattern,
    });
}
// @__NO_SIDE_EFFECTS__
function _lowercase(params) {
    return new $ZodCheckLowerCase({
        check: "string_format",
        format: "lowercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uppercase(params) {
    return new $ZodCheckUpperCase({
        check: "string_format",
        format: "uppercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _includes(includes, params) {
    return new $ZodCheckIncludes({
        check: "string_format",
        format: "includes",
        ...normalizeParams(params),
        includes,
    });
}
// @__NO_SIDE_EFFECTS__
function _startsWith(prefix, params) {
    return new $ZodCheckStartsWith({
        check: "string_format",
        format: "starts_with",
        ...normalizeParams(params),
        prefix,
    });
}
// @__NO_SIDE_EFFECTS__
function _endsWith(suffix, params) {
    return new $ZodCheckEndsWith({
        check: "string_format",
        format: "ends_with",
        ...normalizeParams(params),
        suffix,
    });
}
// @__NO_SIDE_EFFECTS__
function _overwrite(tx) {
    return new $ZodCheckOverwrite({
        check: "overwrite",
        tx,
    });
}
// normalize
// @__NO_SIDE_EFFECTS__
function _normalize(form) {
    return _overwrite((input) => input.normalize(form));
}
// trim
// @__NO_SIDE_EFFECTS__
function _trim() {
    return _overwrite((input) => input.trim());
}
// toLowerCase
// @__NO_SIDE_EFFECTS__
function _toLowerCase() {
    return _overwrite((input) => input.toLowerCase());
}
// toUpperCase
// @__NO_SIDE_EFFECTS__
function _toUpperCase() {
    return _overwrite((input) => input.toUpperCase());
}
// slugify
// @__NO_SIDE_EFFECTS__
function _slugify() {
    return _overwrite((input) => slugify(input));
}
// @__NO_SIDE_EFFECTS__
function _array(Class, element, params) {
    return new Class({
        type: "array",
        element,
        // get element() {
        //   return element;
        // },
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _custom(Class, fn, _params) {
    const norm = normalizeParams(_params);
    norm.abort ?? (norm.abort = true); // default to abort:false
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...norm,
    });
    return schema;
}
// same as _custom but defaults to abort:false
// @__NO_SIDE_EFFECTS__
function _refine(Class, fn, _params) {
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...normalizeParams(_params),
    });
    return schema;
}
// @__NO_SIDE_EFFECTS__
function _superRefine(fn, params) {
    const ch = _check((payload) => {
        payload.addIssue = (issue$1) => {
            if (typeof issue$1 === "string") {
                payload.issues.push(issue(issue$1, payload.value, ch._zod.def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue$1;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = ch);
                _issue.continue ?? (_issue.continue = !ch._zod.def.abort); // abort is always undefined, so this is always true...
                payload.issues.push(issue(_issue));
            }
        };
        return fn(payload.value, payload);
    }, params);
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _check(fn, params) {
    const ch = new $ZodCheck({
        check: "custom",
        ...normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}

function assignProps(target, ...sources) {
    for (const source of sources) {
        for (const key of Reflect.ownKeys(source)) {
            if (Object.prototype.propertyIsEnumerable.call(source, key)) {
                assignProp(target, key, source[key]);
            }
        }
    }
    return target;
}
// function initializeContext<T extends schemas.$ZodType>(inputs: JSONSchemaGeneratorParams<T>): ToJSONSchemaContext<T> {
//   return {
//     processor: inputs.processor,
//     metadataRegistry: inputs.metadata ?? globalRegistry,
//     target: inputs.target ?? "draft-2020-12",
//     unrepresentable: inputs.unrepresentable ?? "throw",
//   };
// }
function initializeContext(params) {
    // Normalize target: convert old non-hyphenated versions to hyphenated versions
    let target = params?.target ?? "draft-2020-12";
    if (target === "draft-4")
        target = "draft-04";
    if (target === "draft-7")
        target = "draft-07";
    return {
        processors: params.processors ?? {},
        metadataRegistry: params?.metadata ?? globalRegistry,
        target,
        unrepresentable: params?.unrepresentable ?? "throw",
        override: params?.override ?? (() => { }),
        io: params?.io ?? "output",
        counter: 0,
        seen: new Map(),
        sharedDefsExtractedFor: undefined,
        sharedEmitDoneFor: undefined,
        cycles: params?.cycles ?? "ref",
        reused: params?.reused ?? "inline",
        intersections: [],
        deferred: [],
        external: params?.external ?? undefined,
    };
}
/**
 * Applies the `unrepresentable` setting at a site that has no JSON Schema equivalent. Throws
 * `message` unless the setting (or the handler's return value) says otherwise. Returns `true` if a
 * custom JSON Schema was written into `json`, in which case the caller must not write its own.
 */
function handleUnrepresentable(schema, ctx, json, params, message) {
    const result = typeof ctx.unrepresentable === "function"
        ? ctx.unrepresentable({ zodSchema: schema, path: params.path, message })
        : ctx.unrepresentable;
    if (result === "any")
        return false;
    if (result === undefined || result === "throw")
        throw new Error(message);
    Object.assign(json, result);
    return true;
}
// never rename this back to `process`: bundler polyfills inject a top-level `const process` that a lexical declaration of the same name collides with (#6397)
function processSchema(schema, ctx, _params = { path: [], schemaPath: [] }) {
    var _a;
    const def = schema._zod.def;
    // check for schema in seens
    const seen = ctx.seen.get(schema);
    if (seen) {
        seen.count++;
        // check if cycle
        const isCycle = _params.schemaPath.includes(schema);
        if (isCycle) {
            seen.cycle = _params.path;
        }
        return seen.schema;
    }
    // initialize
    const result = { schema: {}, count: 1, cycle: undefined, path: _params.path };
    ctx.seen.set(schema, result);
    ctx.sharedDefsExtractedFor = undefined;
    ctx.sharedEmitDoneFor = undefined;
    // custom method overrides default behavior
    const overrideSchema = schema._zod.toJSONSchema?.();
    if (overrideSchema) {
        result.schema = overrideSchema;
    }
    else {
        const params = {
            ..._params,
            schemaPath: [..._params.schemaPath, schema],
            path: _params.path,
        };
        if (schema._zod.processJSONSchema) {
            schema._zod.processJSONSchema(ctx, result.schema, params);
        }
        else {
            const _json = result.schema;
            const processor = ctx.processors[def.type];
            if (!processor) {
                throw new Error(`[toJSONSchema]: Non-representable type encountered: ${def.type}`);
            }
            processor(schema, ctx, _json, params);
        }
        const parent = schema._zod.parent;
        if (parent) {
            // Also set ref if processor didn't (for inheritance)
            if (!result.ref)
                result.ref = parent;
            processSchema(parent, ctx, params);
            ctx.seen.get(parent).isParent = true;
        }
    }
    // metadata
    const meta = ctx.metadataRegistry.get(schema);
    if (meta)
        assignProps(result.schema, meta);
    if (ctx.io === "input" && isTransforming(schema)) {
        // examples/defaults only apply to output type of pipe
        delete result.schema.examples;
        delete result.schema.default;
    }
    // set prefault as default
    if (ctx.io === "input" && "_prefault" in result.schema)
        (_a = result.schema).default ?? (_a.default = result.schema._prefault);
    delete result.schema._prefault;
    // pulling fresh from ctx.seen in case it was overwritten
    const _result = ctx.seen.get(schema);
    return _result.schema;
}
// Escape a reference token for use in a JSON Pointer fragment (RFC 6901): `~` becomes `~0` and `/` becomes `~1`. The `~` replacement must run first.
function encodeJSONPointerSegment(segment) {
    return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
function extractDefs(ctx, schema
// params: EmitParams
) {
    // iterate over seen map;
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // With `external` set, every registered schema resolves through the external branch of `makeURI`, so the root branch below produces the same ref the external branch would — this pass is identical whichever schema it is called with, and only needs to run once.
    if (ctx.external && ctx.sharedDefsExtractedFor === ctx.external)
        return;
    // Track ids to detect duplicates across different schemas
    const idToSchema = new Map();
    for (const entry of ctx.seen.entries()) {
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            const existing = idToSchema.get(id);
            if (existing && existing !== entry[0]) {
                throw new Error(`Duplicate schema id "${id}" detected during JSON Schema conversion. Two different schemas cannot share the same id when converted together.`);
            }
            idToSchema.set(id, entry[0]);
        }
    }
    // returns a ref to the schema defId will be empty if the ref points to an external schema (or #)
    const makeURI = (entry) => {
        // comparing the seen objects because sometimes multiple schemas map to the same seen object. e.g. lazy
        // external is configured
        const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
        if (ctx.external) {
            const externalId = ctx.external.registry.get(entry[0])?.id; // ?? "__shared";// `__schema${ctx.counter++}`;
            // check if schema is in the external registry
            const uriGenerator = ctx.external.uri ?? ((id) => id);
            if (externalId) {
                return { ref: uriGenerator(externalId) };
            }
            // otherwise, add to __shared
            const id = entry[1].defId ?? entry[1].schema.id ?? `schema${ctx.counter++}`;
            entry[1].defId = id; // set defId so it will be reused if needed
            return { defId: id, ref: `${uriGenerator("__shared")}#/${defsSegment}/${encodeJSONPointerSegment(id)}` };
        }
        const uriPrefix = `#`;
        const defUriPrefix = `${uriPrefix}/${defsSegment}/`;
        // an id-less root has nowhere to be extracted to, so it stays inline and self-references as `#`
        if (entry[1] === root && !entry[1].schema.id) {
            return { ref: uriPrefix };
        }
        // self-contained schema
        const defId = entry[1].schema.id ?? `__schema${ctx.counter++}`;
        return { defId, ref: defUriPrefix + encodeJSONPointerSegment(defId) };
    };
    // stored cached version in `def` property remove all properties, set $ref
    const extractToDef = (entry) => {
        // if the schema is already a reference, do not extract it
        if (entry[1].schema.$ref) {
            return;
        }
        const seen = entry[1];
        const { ref, defId } = makeURI(entry);
        seen.def = { ...seen.schema };
        // defId won't be set if the schema is a reference to an external schema or if the schema is the root schema
        if (defId)
            seen.defId = defId;
        // wipe away all properties except $ref
        const schema = seen.schema;
        for (const key in schema) {
            delete schema[key];
        }
        schema.$ref = ref;
    };
    // throw on cycles
    // break cycles
    if (ctx.cycles === "throw") {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.cycle) {
                throw new Error("Cycle detected: " +
                    `#/${seen.cycle?.join("/")}/<root>` +
                    '\n\nSet the `cycles` parameter to `"ref"` to resolve cyclical schemas with defs.');
            }
        }
    }
    // extract schemas into $defs
    for (const entry of ctx.seen.entries()) {
        const seen = entry[1];
        // convert root schema to # $ref
        if (schema === entry[0]) {
            extractToDef(entry); // this has special handling for the root schema
            continue;
        }
        // extract schemas that are in the external registry
        if (ctx.external) {
            const ext = ctx.external.registry.get(entry[0])?.id;
            if (schema !== entry[0] && ext) {
                extractToDef(entry);
                continue;
            }
        }
        // extract schemas with `id` meta
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            extractToDef(entry);
            continue;
        }
        // break cycles
        if (seen.cycle) {
            // any
            extractToDef(entry);
            continue;
        }
        // extract reused schemas
        if (seen.count > 1) {
            if (ctx.reused === "ref") {
                extractToDef(entry);
            }
        }
    }
    if (ctx.external)
        ctx.sharedDefsExtractedFor = ctx.external;
}
/** Rewrites `anyOf: [{type: "a"}, {type: "b"}]` to `type: ["a", "b"]`, which every JSON Schema draft treats as equivalent and most consumers render far better for the nullable case. Only branches that are a bare type assertion qualify — anything carrying a constraint, `$ref`, `const` or metadata is left alone. Runs after `flattenRef`, so a branch an override decorated or `$defs` extraction turned into a `$ref` is no longer bare and correctly stays in `anyOf`. `oneOf` is excluded: `integer` and `number` overlap, so "exactly one" and "at least one" are not the same there. OpenAPI 3.0 is excluded: its `type` must be a single string. */
function compactTypeUnion(schema) {
    const options = schema.anyOf;
    if (!Array.isArray(options) || options.length === 0 || schema.type !== undefined)
        return;
    const types = [];
    for (const option of options) {
        if (!option || typeof option !== "object")
            return;
        // A branch that is itself a compactible union folds into this one — nested `anyOf` and a flat `type` array say the same thing. Compacting it first also makes the result independent of the order this pass walks the seen map in.
        compactTypeUnion(option);
        const keys = Object.keys(option);
        if (keys.length !== 1 || keys[0] !== "type")
            return;
        const type = option.type;
        for (const member of Array.isArray(type) ? type : [type]) {
            if (typeof member !== "string")
                return;
            if (!types.includes(member))
                types.push(member);
        }
    }
    delete schema.anyOf;
    // A `type` array must be non-empty and unique (metaschema); a single member is spelled as a bare string.
    schema.type = types.length === 1 ? types[0] : types;
}
/** Keywords `foldIntersection` knows how to combine. Anything else — `$ref`, `patternProperties`,
 * an annotation like `description` — makes a member unfoldable, so a constraint this does not
 * understand leaves the `allOf` alone instead of being silently dropped or misattributed. */
const FOLDABLE_KEYS = new Set(["type", "properties", "required", "additionalProperties"]);
const UNION_KEYS = ["oneOf", "anyOf"];
/** A member's constraint on a key it does not declare itself. A `catchall` states one; `false`, an absent `additionalProperties`, and the empty schema a loose object emits state nothing. */
function undeclaredConstraint(member) {
    const extra = member.additionalProperties;
    if (extra === undefined || extra === false || typeof extra !== "object" || extra === null)
        return null;
    return Object.keys(extra).length ? extra : null;
}
/** Combines object members into the single object they describe together, or returns `null` if any of them carries a keyword outside {@link FOLDABLE_KEYS}. */
function foldObjects(members) {
    const objects = [];
    for (const member of members) {
        // A boolean subschema is legal JSON Schema and carries no keywords to fold.
        if (typeof member !== "object" || member.type !== "object")
            return null;
        for (const key in member) {
            if (!FOLDABLE_KEYS.has(key))
                return null;
        }
        objects.push(member);
    }
    const properties = {};
    const required = new Set();
    for (const object of objects) {
        for (const key in object.properties) {
            // `in` would report a `__proto__` key as already present via the prototype chain and skip it.
            if (Object.prototype.hasOwnProperty.call(properties, key))
                continue;
            // Every member constrains this key: the ones that declare it say how, and a `catchall` member constrains it too even though it does not name it. The key has to satisfy all of them, which is the same intersection one level down.
            const parts = [];
            for (const other of objects) {
                const part = other.properties?.[key] ?? undeclaredConstraint(other);
                if (part === null || part === undefined)
                    continue;
                if (!parts.some((seen) => JSON.stringify(seen) === JSON.stringify(part)))
                    parts.push(part);
            }
            const merged = parts.length === 1
                ? parts[0]
                : (foldObjects(parts) ?? { allOf: parts });
            assignProp(properties, key, merged);
        }
        for (const key of object.required ?? [])
            required.add(key);
    }
    const folded = { type: "object", properties };
    if (required.size)
        folded.required = [...required];
    // A key no member declares is rejected only when every member rejects it, so the fold is closed only when every member is. Otherwise it carries whatever the `catchall` members demand of such a key.
    if (objects.every((object) => object.additionalProperties === false)) {
        folded.additionalProperties = false;
    }
    else {
        const constraints = [];
        for (const object of objects) {
            const constraint = undeclaredConstraint(object);
            if (constraint && !constraints.some((seen) => JSON.stringify(seen) === JSON.stringify(constraint)))
                constraints.push(constraint);
        }
        if (constraints.length === 1)
            folded.additionalProperties = constraints[0];
        else if (constraints.length > 1)
            folded.additionalProperties = { allOf: constraints };
    }
    return folded;
}
/** `additionalProperties` in an `allOf` member sees only that member's own `properties`, so two
 * closed object members reject each other's keys and the schema validates nothing. Zod's parser
 * pools the key sets instead — `handleIntersectionResults` reports a key as unrecognized only when
 * *every* side rejects it — so the emitted schema has to pool them too, and folding the members
 * into one object is the encoding that says so on every target.
 *
 * This runs from `finalize`, after `extractDefs`, which is what keeps it clear of the `$ref`
 * machinery: a member extracted into `$defs` is already a `$ref` by now and declines to fold, so it
 * keeps its reference and its own closedness rather than being inlined as a stale copy. */
function foldIntersection(json) {
    const allOf = json.allOf;
    if (!Array.isArray(allOf) || allOf.length < 2)
        return;
    // An `override` runs before this pass and may have written object keywords onto the intersection itself. Those are deliberate, so decline rather than overwrite them.
    for (const key of FOLDABLE_KEYS)
        if (key in json)
            return;
    // An intersection distributes over a union: `A & (X | Y)` is `(A & X) | (A & Y)`. Only the first union is distributed over; a second one stays among the members every branch folds against, where it fails the object check and declines the whole intersection rather than multiplying out.
    const unions = allOf.filter((m) => UNION_KEYS.some((k) => Array.isArray(m[k])));
    let folded = null;
    if (!unions.length) {
        folded = foldObjects(allOf);
    }
    else {
        const union = unions[0];
        const keyword = UNION_KEYS.find((k) => Array.isArray(union[k]));
        if (Object.keys(union).length !== 1)
            return;
        const rest = allOf.filter((m) => m !== union);
        const branches = union[keyword].map((branch) => foldObjects([...rest, branch]));
        if (branches.some((b) => !b))
            return;
        folded = { [keyword]: branches };
    }
    if (!folded)
        return;
    delete json.allOf;
    assignProps(json, folded);
}
function finalize(ctx, schema) {
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // flatten refs - inherit properties from parent schemas
    const flattenRef = (zodSchema) => {
        const seen = ctx.seen.get(zodSchema);
        // already processed
        if (seen.ref === null)
            return;
        const schema = seen.def ?? seen.schema;
        const _cached = { ...schema };
        const ref = seen.ref;
        seen.ref = null; // prevent infinite recursion
        if (ref) {
            flattenRef(ref);
            const refSeen = ctx.seen.get(ref);
            const refSchema = refSeen.schema;
            // merge referenced schema into current
            if (refSchema.$ref && (ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0")) {
                // older drafts can't combine $ref with other properties
                schema.allOf = schema.allOf ?? [];
                schema.allOf.push(refSchema);
            }
            else {
                assignProps(schema, refSchema);
            }
            // restore child's own properties (child wins)
            assignProps(schema, _cached);
            const isParentRef = zodSchema._zod.parent === ref;
            // For parent chain, child is a refinement - remove parent-only properties
            if (isParentRef) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (!(key in _cached)) {
                        delete schema[key];
                    }
                }
            }
            // When ref was extracted to $defs, remove properties that match the definition
            if (refSchema.$ref && refSeen.def) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (key in refSeen.def && JSON.stringify(schema[key]) === JSON.stringify(refSeen.def[key])) {
                        delete schema[key];
                    }
                }
            }
        }
        // If parent was extracted (has $ref), propagate $ref to this schema. This handles cases like: readonly().meta({id}).describe() where processor sets ref to innerType but parent should be referenced
        const parent = zodSchema._zod.parent;
        if (parent && parent !== ref) {
            // Ensure parent is processed first so its def has inherited properties
            flattenRef(parent);
            const parentSeen = ctx.seen.get(parent);
            if (parentSeen?.schema.$ref) {
                schema.$ref = parentSeen.schema.$ref;
                // De-duplicate with parent's definition
                if (parentSeen.def) {
                    for (const key in schema) {
                        if (key === "$ref" || key === "allOf")
                            continue;
                        if (key in parentSeen.def && JSON.stringify(schema[key]) === JSON.stringify(parentSeen.def[key])) {
                            delete schema[key];
                        }
                    }
                }
            }
        }
        // execute overrides
        ctx.override({
            zodSchema: zodSchema,
            jsonSchema: schema,
            path: seen.path ?? [],
        });
    };
    // Flattening walks the whole map and clears each `ref` as it goes, so a second call over the same map is a no-op scan. Skip it outright once it has run for a registry conversion.
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of [...ctx.seen.entries()].reverse()) {
            flattenRef(entry[0]);
        }
        if (ctx.target !== "openapi-3.0") {
            for (const entry of ctx.seen.entries()) {
                compactTypeUnion(entry[1].def ?? entry[1].schema);
            }
        }
        for (const rewrite of ctx.deferred)
            rewrite();
        // After flattening, every member that was extracted is a `$ref`, so the fold sees the final shape. A schema that inherits an intersection — through `z.lazy`, or any `ref` chain — holds the same `allOf` array, so fold by array identity to catch every copy.
        if (ctx.intersections.length) {
            const carriers = new Map();
            for (const seen of ctx.seen.values()) {
                for (const json of [seen.schema, seen.def]) {
                    const allOf = json?.allOf;
                    if (!Array.isArray(allOf))
                        continue;
                    const existing = carriers.get(allOf);
                    if (existing)
                        existing.push(json);
                    else
                        carriers.set(allOf, [json]);
                }
            }
            for (const allOf of ctx.intersections) {
                for (const json of carriers.get(allOf) ?? [])
                    foldIntersection(json);
            }
        }
    }
    const result = {};
    if (ctx.target === "draft-2020-12") {
        result.$schema = "https://json-schema.org/draft/2020-12/schema";
    }
    else if (ctx.target === "draft-07") {
        result.$schema = "http://json-schema.org/draft-07/schema#";
    }
    else if (ctx.target === "draft-04") {
        result.$schema = "http://json-schema.org/draft-04/schema#";
    }
    else if (ctx.target === "openapi-3.0") ;
    else ;
    if (ctx.external?.uri) {
        const id = ctx.external.registry.get(schema)?.id;
        if (!id)
            throw new Error("Schema is missing an `id` property");
        result.$id = ctx.external.uri(id);
    }
    // when the root was extracted into $defs, `root.schema` is the `$ref` wrapper and `root.def` is the body that now lives under $defs
    assignProps(result, root.defId ? root.schema : (root.def ?? root.schema));
    // The `id` in `.meta()` is a Zod-specific registration tag used to extract schemas into $defs — it is not user-facing JSON Schema metadata. Strip it from the output body where it would otherwise leak. The id is preserved implicitly via the $defs key (and via $ref paths).
    const rootMetaId = ctx.metadataRegistry.get(schema)?.id;
    if (rootMetaId !== undefined && result.id === rootMetaId)
        delete result.id;
    // build defs object. With `external`, `defs` is the shared object every schema writes into, so the same entries are reassigned on every call. Without it, `defs` is fresh per call and must be rebuilt.
    const defs = ctx.external?.defs ?? {};
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.def && seen.defId) {
                if (seen.def.id === seen.defId)
                    delete seen.def.id;
                assignProp(defs, seen.defId, seen.def);
            }
        }
    }
    if (ctx.external)
        ctx.sharedEmitDoneFor = ctx.external;
    // set definitions in result
    if (ctx.external) ;
    else {
        if (Object.keys(defs).length > 0) {
            if (ctx.target === "draft-2020-12") {
                result.$defs = defs;
            }
            else {
                result.definitions = defs;
            }
        }
    }
    try {
        // this "finalizes" this schema and ensures all cycles are removed each call to finalize() is functionally independent though the seen map is shared
        const finalized = JSON.parse(JSON.stringify(result));
        Object.defineProperty(finalized, "~standard", {
            value: {
                ...schema["~standard"],
                jsonSchema: {
                    input: createStandardJSONSchemaMethod(schema, "input", ctx.processors),
                    output: createStandardJSONSchemaMethod(schema, "output", ctx.processors),
                },
            },
            enumerable: false,
            writable: false,
        });
        return finalized;
    }
    catch (_err) {
        throw new Error("Error converting schema to JSON.");
    }
}
function isTransforming(_schema, _ctx) {
    const ctx = _ctx ?? { seen: new Set() };
    if (ctx.seen.has(_schema))
        return false;
    ctx.seen.add(_schema);
    const def = _schema._zod.def;
    if (def.type === "transform")
        return true;
    if (def.type === "array")
        return isTransforming(def.element, ctx);
    if (def.type === "set")
        return isTransforming(def.valueType, ctx);
    if (def.type === "lazy")
        return isTransforming(def.getter(), ctx);
    if (def.type === "promise" ||
        def.type === "optional" ||
        def.type === "nonoptional" ||
        def.type === "nullable" ||
        def.type === "readonly" ||
        def.type === "default" ||
        def.type === "prefault" ||
        def.type === "catch") {
        return isTransforming(def.innerType, ctx);
    }
    if (def.type === "intersection") {
        return isTransforming(def.left, ctx) || isTransforming(def.right, ctx);
    }
    if (def.type === "record" || def.type === "map") {
        return isTransforming(def.keyType, ctx) || isTransforming(def.valueType, ctx);
    }
    if (def.type === "pipe") {
        if (_schema._zod.traits.has("$ZodCodec"))
            return true;
        return isTransforming(def.in, ctx) || isTransforming(def.out, ctx);
    }
    if (def.type === "object") {
        for (const key in def.shape) {
            if (isTransforming(def.shape[key], ctx))
                return true;
        }
        return false;
    }
    if (def.type === "union") {
        for (const option of def.options) {
            if (isTransforming(option, ctx))
                return true;
        }
        return false;
    }
    if (def.type === "tuple") {
        for (const item of def.items) {
            if (isTransforming(item, ctx))
                return true;
        }
        if (def.rest && isTransforming(def.rest, ctx))
            return true;
        return false;
    }
    return false;
}
/**
 * Creates a toJSONSchema method for a schema instance.
 * This encapsulates the logic of initializing context, processing, extracting defs, and finalizing.
 */
const createToJSONSchemaMethod = (schema, processors = {}) => (params) => {
    const ctx = initializeContext({ ...params, processors });
    processSchema(schema, ctx);
    extractDefs(ctx, schema);
    return finalize(ctx, schema);
};
const createStandardJSONSchemaMethod = (schema, io, processors = {}) => (params) => {
    const { libraryOptions, target } = params ?? {};
    const ctx = initializeContext({ ...(libraryOptions ?? {}), target, io, processors });
    processSchema(schema, ctx);
    extractDefs(ctx, schema);
    return finalize(ctx, schema);
};

const narrowMin = (agg, key, value) => {
    if (agg[key] === undefined || value > agg[key])
        agg[key] = value;
};
const narrowMax = (agg, key, value) => {
    if (agg[key] === undefined || value < agg[key])
        agg[key] = value;
};
const narrowBoth = (agg, value) => {
    narrowMin(agg, "minimum", value);
    narrowMax(agg, "maximum", value);
};
const addDivisor = (agg, value) => {
    agg.multipleOf ?? (agg.multipleOf = []);
    if (!agg.multipleOf.includes(value))
        agg.multipleOf.push(value);
};
const addPattern = (agg, pattern) => {
    agg.patterns ?? (agg.patterns = new Set());
    agg.patterns.add(pattern);
};
const intersectMime = (agg, mime) => {
    agg.mime = agg.mime ? agg.mime.filter((m) => mime.includes(m)) : [...mime];
};
// last-wins, matching the bag's historical write order; the flag keeps an integer format from being lost to a later float one
const setFormat = (agg, format) => {
    agg.format = format;
    if (format.includes("int"))
        agg.isInt = true;
};
const minContributor = (agg, def) => narrowMin(agg, "minimum", def.minimum);
const maxContributor = (agg, def) => narrowMax(agg, "maximum", def.maximum);
const formatContributor = (ranges) => (agg, def) => {
    setFormat(agg, def.format);
    const [minimum, maximum] = ranges[def.format];
    narrowMin(agg, "minimum", minimum);
    narrowMax(agg, "maximum", maximum);
};
const contributors = {
    greater_than: (agg, def) => narrowMin(agg, def.inclusive ? "minimum" : "exclusiveMinimum", def.value),
    less_than: (agg, def) => narrowMax(agg, def.inclusive ? "maximum" : "exclusiveMaximum", def.value),
    multiple_of: (agg, def) => addDivisor(agg, def.value),
    number_format: formatContributor(NUMBER_FORMAT_RANGES),
    bigint_format: formatContributor(BIGINT_FORMAT_RANGES),
    min_length: minContributor,
    max_length: maxContributor,
    length_equals: (agg, def) => narrowBoth(agg, def.length),
    min_size: minContributor,
    max_size: maxContributor,
    size_equals: (agg, def) => narrowBoth(agg, def.size),
    string_format: (agg, def) => {
        setFormat(agg, def.format);
        if (def.pattern)
            addPattern(agg, def.pattern);
        if (def.format === "base64" || def.format === "base64url")
            agg.contentEncoding = def.format;
        if (def.local || def.precision === -1)
            agg.laxFormat = true;
    },
    mime_type: (agg, def) => intersectMime(agg, def.mime),
};
function aggregateChecks(schema) {
    const agg = {};
    const def = schema._zod.def;
    // a format schema is its own first check, same rule as $ZodType init
    const list = schema._zod.traits.has("$ZodCheck")
        ? [schema, ...(def.checks ?? [])]
        : (def.checks ?? []);
    for (const ch of list)
        contributors[ch._zod.def.check]?.(agg, ch._zod.def);
    // reconcile with the bag so third-party onattach contributions still land; first-party residue is never tighter than the fold, so merging it back is idempotent for one and additive for the other
    const bag = schema._zod.bag;
    if (bag.minimum !== undefined)
        narrowMin(agg, "minimum", bag.minimum);
    if (bag.exclusiveMinimum !== undefined)
        narrowMin(agg, "exclusiveMinimum", bag.exclusiveMinimum);
    if (bag.maximum !== undefined)
        narrowMax(agg, "maximum", bag.maximum);
    if (bag.exclusiveMaximum !== undefined)
        narrowMax(agg, "exclusiveMaximum", bag.exclusiveMaximum);
    if (bag.multipleOf !== undefined)
        addDivisor(agg, bag.multipleOf);
    if (bag.format !== undefined) {
        agg.format ?? (agg.format = bag.format);
        if (bag.format.includes("int"))
            agg.isInt = true;
    }
    if (bag.mime)
        intersectMime(agg, bag.mime);
    for (const pattern of bag.patterns ?? [])
        addPattern(agg, pattern);
    return agg;
}
const formatMap = {
    guid: "uuid",
    url: "uri",
    datetime: "date-time",
    json_string: "json-string",
    regex: "", // do not set
};
// ==================== SIMPLE TYPE PROCESSORS ====================
// the runtime patterns are lax so parse paths never overflow the regex stack; the emitted schema swaps in the exact block forms, which zod itself never executes
const exactPatterns = new Map([
    [base64Charset, base64],
    [base64urlCharset, base64url],
]);
const exactPattern = (p) => exactPatterns.get(p) ?? p;
const stringProcessor = (schema, ctx, _json, _params) => {
    const json = _json;
    json.type = "string";
    const { minimum, maximum, format, patterns, contentEncoding, laxFormat } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minLength = minimum;
    if (typeof maximum === "number")
        json.maxLength = maximum;
    // custom pattern overrides format
    if (format) {
        json.format = formatMap[format] ?? format;
        if (json.format === "")
            delete json.format; // empty format is not valid
        // `z.iso.time()` is never full-time, and `laxFormat` carries the datetime shapes that also accept what their keyword forbids
        if (format === "time" || laxFormat) {
            delete json.format;
        }
    }
    if (contentEncoding)
        json.contentEncoding = contentEncoding;
    if (patterns && patterns.size > 0) {
        const patternList = [...patterns].map(exactPattern);
        if (patternList.length === 1)
            json.pattern = patternList[0].source;
        else if (patternList.length > 1) {
            json.allOf = [
                ...patternList.map((regex) => ({
                    ...(ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0"
                        ? { type: "string" }
                        : {}),
                    pattern: regex.source,
                })),
            ];
        }
    }
};
const numberProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const { minimum, maximum, multipleOf, exclusiveMaximum, exclusiveMinimum, isInt } = aggregateChecks(schema);
    json.type = isInt ? "integer" : "number";
    // when both minimum and exclusiveMinimum exist, pick the more restrictive one
    const exMin = typeof exclusiveMinimum === "number" && exclusiveMinimum >= (minimum ?? Number.NEGATIVE_INFINITY);
    const exMax = typeof exclusiveMaximum === "number" && exclusiveMaximum <= (maximum ?? Number.POSITIVE_INFINITY);
    const legacy = ctx.target === "draft-04" || ctx.target === "openapi-3.0";
    if (exMin) {
        if (legacy) {
            json.minimum = exclusiveMinimum;
            json.exclusiveMinimum = true;
        }
        else {
            json.exclusiveMinimum = exclusiveMinimum;
        }
    }
    else if (typeof minimum === "number") {
        json.minimum = minimum;
    }
    if (exMax) {
        if (legacy) {
            json.maximum = exclusiveMaximum;
            json.exclusiveMaximum = true;
        }
        else {
            json.exclusiveMaximum = exclusiveMaximum;
        }
    }
    else if (typeof maximum === "number") {
        json.maximum = maximum;
    }
    if (multipleOf) {
        // JSON Schema requires a divisor strictly greater than zero, and a non-finite one does not survive JSON at all. A negative divisor accepts exactly what its absolute value accepts, so it still maps; zero, NaN and Infinity have no keyword form.
        const divisors = new Set();
        for (const divisor of multipleOf) {
            if (Number.isFinite(divisor) && divisor !== 0)
                divisors.add(Math.abs(divisor));
            else
                handleUnrepresentable(schema, ctx, json, params, `A multipleOf divisor of ${divisor} cannot be represented in JSON Schema`);
        }
        // chained divisors are a conjunction the keyword cannot carry alone, so extras ride an allOf, same as stacked patterns
        const [first, ...rest] = divisors;
        if (first !== undefined)
            json.multipleOf = first;
        if (rest.length)
            json.allOf = [...(json.allOf ?? []), ...rest.map((m) => ({ multipleOf: m }))];
    }
};
const booleanProcessor = (_schema, _ctx, json, _params) => {
    json.type = "boolean";
};
const neverProcessor = (_schema, _ctx, json, _params) => {
    json.not = {};
};
const unknownProcessor = (_schema, _ctx, _json, _params) => {
    // empty schema accepts anything
};
const enumProcessor = (schema, _ctx, json, _params) => {
    const def = schema._zod.def;
    const values = getEnumValues(def.entries);
    // an empty enum accepts nothing, same as z.never()
    if (values.length === 0) {
        json.not = {};
        return;
    }
    // Number enums can have both string and number values
    if (values.every((v) => typeof v === "number"))
        json.type = "number";
    if (values.every((v) => typeof v === "string"))
        json.type = "string";
    json.enum = values;
};
const customProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Custom types cannot be represented in JSON Schema");
};
const transformProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Transforms cannot be represented in JSON Schema");
};
// ==================== COMPOSITE TYPE PROCESSORS ====================
const arrayProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const { minimum, maximum } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minItems = minimum;
    if (typeof maximum === "number")
        json.maxItems = maximum;
    json.type = "array";
    json.items = processSchema(def.element, ctx, {
        ...params,
        path: [...params.path, "items"],
    });
};
// Transform and catch set `optin = "optional"` at runtime so the parser lets them observe an
// absent key, but their declared input type stays required. An input JSON Schema describes the
// declared type, so resolve past them to the schema that actually carries the optionality.
// Used by both `objectProcessor` (for `required`) and `tupleProcessor` (for `minItems`); see
// wiki/optionality.md, "The JSON Schema emitter reads the *static* value".
function inputOptin(schema) {
    const def = schema._zod.def;
    if (def.type === "pipe" && def.in._zod.traits.has("$ZodTransform")) {
        return inputOptin(def.out);
    }
    if (def.type === "catch") {
        return inputOptin(def.innerType);
    }
    return schema._zod.optin;
}
const objectProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const shape = def.shape;
    // dropping it while still emitting `additionalProperties: false` would emit a schema that rejects data this one requires
    const symbolKeys = Object.getOwnPropertySymbols(shape);
    if (symbolKeys.length &&
        handleUnrepresentable(schema, ctx, json, params, "Symbol keys cannot be represented in JSON Schema")) {
        return;
    }
    json.type = "object";
    json.properties = {};
    for (const key in shape) {
        // assignProp so a __proto__ key becomes an own property instead of hitting the inherited setter on the plain {} we build into
        assignProp(json.properties, key, processSchema(shape[key], ctx, {
            ...params,
            path: [...params.path, "properties", key],
        }));
    }
    // required keys
    const requiredKeys = [];
    for (const key of Object.keys(shape)) {
        const field = def.shape[key];
        if (ctx.io === "input" ? inputOptin(field) === undefined : field._zod.optout === undefined) {
            requiredKeys.push(key);
        }
    }
    if (requiredKeys.length > 0) {
        json.required = requiredKeys;
    }
    // catchall
    if (def.catchall?._zod.def.type === "never") {
        // strict
        json.additionalProperties = false;
    }
    else if (!def.catchall) {
        // regular
        if (ctx.io === "output")
            json.additionalProperties = false;
    }
    else if (def.catchall) {
        json.additionalProperties = processSchema(def.catchall, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
};
const unionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    // Exclusive unions (inclusive === false) use oneOf (exactly one match) instead of anyOf (one or more matches). This includes both z.xor() and discriminated unions
    const isExclusive = def.inclusive === false;
    const options = def.options.map((x, i) => processSchema(x, ctx, {
        ...params,
        path: [...params.path, isExclusive ? "oneOf" : "anyOf", i],
    }));
    if (isExclusive) {
        json.oneOf = options;
    }
    else {
        json.anyOf = options;
    }
};
const intersectionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const a = processSchema(def.left, ctx, {
        ...params,
        path: [...params.path, "allOf", 0],
    });
    const b = processSchema(def.right, ctx, {
        ...params,
        path: [...params.path, "allOf", 1],
    });
    const isSimpleIntersection = (val) => "allOf" in val && Object.keys(val).length === 1;
    const allOf = [
        ...(isSimpleIntersection(a) ? a.allOf : [a]),
        ...(isSimpleIntersection(b) ? b.allOf : [b]),
    ];
    json.allOf = allOf;
    // Recorded innermost first, so a nested intersection has already folded by the time this one is considered. The array is the handle rather than the schema, because a wrapper that inherits this schema shares the same array; `finalize` folds every object holding it. See `foldIntersection`.
    ctx.intersections.push(allOf);
};
/** JSON object keys are always strings, so a numeric record key schema is re-expressed over the
 * numeric-string form the record parser matches. Deferred to `finalize`, after the flatten: a key
 * behind a wrapper only carries its own `type` before then, and a union key only has its branches.
 *
 * A numeric bound cannot apply to a property name, so `minimum` and its siblings are dropped rather
 * than carried over: keeping them beside `type: "string"` reproduces the match-nothing schema this
 * exists to fix. A key that carries one therefore emits wider than the record parses — `z.record(z.number().min(5), V)`
 * accepts `"3"` — which is the deliberate trade, since throwing on it would reject an ordinary schema
 * outright. */
function stringifyKeyNames(bySchema, json, visited) {
    // an extracted key that rewrites cannot go on sharing its definition — the string form a key position needs is not the number form every other reference wants — so it inlines. One that does not rewrite keeps the `$ref`.
    if (json.$ref) {
        // a recursive key holds its own reference inside its definition, so a node already on the path is left alone rather than resolved again
        if (visited.has(json))
            return json;
        visited.add(json);
        const def = bySchema.get(json)?.def;
        if (!def)
            return json;
        const inlined = stringifyKeyNames(bySchema, def, visited);
        return inlined === def ? json : inlined;
    }
    for (const keyword of ["anyOf", "oneOf"]) {
        const branches = json[keyword];
        if (!Array.isArray(branches))
            continue;
        const mapped = branches.map((branch) => stringifyKeyNames(bySchema, branch, visited));
        // rebuilding regardless would detach a key that had nothing to re-express, dropping its `$ref` and leaking the internal `id`
        if (mapped.some((branch, i) => branch !== branches[i]))
            json = { ...json, [keyword]: mapped };
    }
    // a member that already admits a string leaves the key unconstrained, so the node's own type re-expresses only when every member is numeric
    const types = Array.isArray(json.type) ? json.type : [json.type];
    const numericType = !types.includes("string") && types.some((t) => t === "number" || t === "integer");
    // a heterogeneous key carries no type at all, so its numeric members are caught here instead
    const values = json.enum ?? (json.const !== undefined ? [json.const] : undefined);
    if (!numericType && !values?.some((v) => typeof v === "number"))
        return json;
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format, id, ...rest } = json;
    if (rest.enum)
        rest.enum = rest.enum.map((v) => (typeof v === "number" ? String(v) : v));
    else if (typeof rest.const === "number")
        rest.const = String(rest.const);
    // a heterogeneous key keeps its absent type: the stringified members already say what a key may be
    if (!numericType)
        return rest;
    rest.type = "string";
    if (!values)
        rest.pattern = (types.includes("number") ? number$1 : integer).source;
    return rest;
}
/** Every record of one conversion, so the carriers are found in a single pass rather than once per record. */
const pendingRecords = new WeakMap();
function rewriteKeyNames(ctx) {
    // an extracted key is resolved by the object `extractToDef` left in its place, so the map is built once rather than searched per reference. `_zod.toJSONSchema` can hand the same object to two schemas, so the first entry carrying a body wins, as a search would have found it.
    const bySchema = new Map();
    for (const entry of ctx.seen.values()) {
        if (entry.def && !bySchema.has(entry.schema))
            bySchema.set(entry.schema, entry);
    }
    const rewrites = new Map();
    for (const record of pendingRecords.get(ctx) ?? []) {
        const seen = ctx.seen.get(record);
        const names = (seen?.def ?? seen?.schema)?.propertyNames;
        if (!names || names === true || rewrites.has(names))
            continue;
        const rewritten = stringifyKeyNames(bySchema, names, new Set());
        if (rewritten !== names)
            rewrites.set(names, rewritten);
    }
    if (!rewrites.size)
        return;
    // the flatten has already copied each record's own properties onto every wrapper by reference, and an extracted body is another such copy, so every carrier holding a rewritten key is updated together
    for (const entry of ctx.seen.values()) {
        for (const carrier of [entry.schema, entry.def]) {
            const rewritten = carrier && rewrites.get(carrier.propertyNames);
            if (rewritten)
                carrier.propertyNames = rewritten;
        }
    }
}
const recordProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    json.type = "object";
    // For looseRecord with regex patterns, use patternProperties. This correctly represents "only validate keys matching the pattern" semantics and composes well with allOf (intersections)
    const keyType = def.keyType;
    const patterns = aggregateChecks(keyType).patterns;
    if (def.mode === "loose" && patterns && patterns.size > 0) {
        // Use patternProperties for looseRecord with regex patterns
        const valueSchema = processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "patternProperties", "*"],
        });
        json.patternProperties = {};
        for (const pattern of patterns) {
            assignProp(json.patternProperties, exactPattern(pattern).source, valueSchema);
        }
    }
    else {
        // Default behavior: use propertyNames + additionalProperties
        if (ctx.target === "draft-07" || ctx.target === "draft-2020-12") {
            json.propertyNames = processSchema(def.keyType, ctx, {
                ...params,
                path: [...params.path, "propertyNames"],
            });
            let pending = pendingRecords.get(ctx);
            if (!pending) {
                pending = [];
                pendingRecords.set(ctx, pending);
                ctx.deferred.push(() => rewriteKeyNames(ctx));
            }
            pending.push(schema);
        }
        json.additionalProperties = processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
    // Add required for keys with discrete values (enum, literal, etc.)
    const keyValues = keyType._zod.values;
    // Every key shares one value schema, so an optional-in value makes the whole key set omittable on input. Output keeps them: the exhaustive branch assigns every key, even one whose value came back undefined.
    const omittableOnInput = ctx.io === "input" && inputOptin(def.valueType) !== undefined;
    if (keyValues && !def.partial && !omittableOnInput) {
        const validKeyValues = [...keyValues].filter((v) => typeof v === "string" || typeof v === "number");
        if (validKeyValues.length > 0) {
            json.required = validKeyValues.map(String);
        }
    }
};
const nullableProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const inner = processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    if (ctx.target === "openapi-3.0") {
        seen.ref = def.innerType;
        json.nullable = true;
    }
    else {
        json.anyOf = [inner, { type: "null" }];
    }
};
const nonoptionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
/** Round-trips a default value through JSON so the emitted schema is guaranteed to be valid JSON.
 * A BigInt has no reliable encoding, so it goes through `unrepresentable` like any other
 * unrepresentable value. Returns a sentinel when the caller must not write a default of its own. */
const UNREPRESENTABLE_DEFAULT = Symbol();
function serializeDefaultValue(value, schema, ctx, json, params) {
    let unrepresentable = false;
    const serialized = JSON.stringify(value, (_, val) => {
        if (typeof val !== "bigint")
            return val;
        unrepresentable = true;
        return null;
    });
    if (!unrepresentable)
        return JSON.parse(serialized);
    handleUnrepresentable(schema, ctx, json, params, "BigInt defaults cannot be represented in JSON Schema");
    return UNREPRESENTABLE_DEFAULT;
}
const defaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json.default = value;
};
const prefaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    if (ctx.io !== "input")
        return;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json._prefault = value;
};
const catchProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    let catchValue;
    try {
        catchValue = def.catchValue(undefined);
    }
    catch {
        handleUnrepresentable(schema, ctx, json, params, "Dynamic catch values are not supported in JSON Schema");
        return;
    }
    json.default = catchValue;
};
const pipeProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    const inIsTransform = def.in._zod.traits.has("$ZodTransform");
    const innerType = ctx.io === "input" ? (inIsTransform ? def.out : def.in) : def.out;
    processSchema(innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = innerType;
};
const readonlyProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    json.readOnly = true;
};
const optionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};

/* Prototypes that already carry the lazy helper methods. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedErrorProtos = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
/* Helper methods live as non-enumerable lazy getters on the shared
 * prototype instead of own properties on every instance. On first
 * access the getter allocates the per-instance closure and caches it
 * as a non-enumerable own property, so detached usage still works and
 * the allocation only happens for methods actually touched. */
function _lazyMethod(proto, key, make) {
    Object.defineProperty(proto, key, {
        configurable: true,
        enumerable: false,
        get() {
            const value = make(this);
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
            return value;
        },
        set(value) {
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
        },
    });
}
const initializer = (inst, issues) => {
    $ZodError.init(inst, issues);
    inst.name = "ZodError";
    const proto = Object.getPrototypeOf(inst);
    if (_installedErrorProtos.has(proto))
        return;
    _installedErrorProtos.add(proto);
    _lazyMethod(proto, "format", (self) => (mapper) => formatError(self, mapper));
    _lazyMethod(proto, "flatten", (self) => (mapper) => flattenError(self, mapper));
    _lazyMethod(proto, "addIssue", (self) => (issue) => {
        self.issues.push(issue);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    _lazyMethod(proto, "addIssues", (self) => (issues) => {
        self.issues.push(...issues);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    Object.defineProperty(proto, "isEmpty", {
        configurable: true,
        enumerable: false,
        get() {
            return this.issues.length === 0;
        },
    });
};
const ZodRealError = /*@__PURE__*/ $constructor("ZodError", initializer, undefined, {
    Parent: Error,
});
// /** @deprecated Use `z.core.$ZodErrorMapCtx` instead. */
// export type ErrorMapCtx = core.$ZodErrorMapCtx;

const parse = /* @__PURE__ */ _parse(ZodRealError);
const parseAsync = /* @__PURE__ */ _parseAsync(ZodRealError);
const safeParse = /* @__PURE__ */ _safeParse(ZodRealError);
const safeParseAsync = /* @__PURE__ */ _safeParseAsync(ZodRealError);
// Codec functions
const encode = /* @__PURE__ */ _encode(ZodRealError);
const decode = /* @__PURE__ */ _decode(ZodRealError);
const encodeAsync = /* @__PURE__ */ _encodeAsync(ZodRealError);
const decodeAsync = /* @__PURE__ */ _decodeAsync(ZodRealError);
const safeEncode = /* @__PURE__ */ _safeEncode(ZodRealError);
const safeDecode = /* @__PURE__ */ _safeDecode(ZodRealError);
const safeEncodeAsync = /* @__PURE__ */ _safeEncodeAsync(ZodRealError);
const safeDecodeAsync = /* @__PURE__ */ _safeDecodeAsync(ZodRealError);

// Register English as the default locale on first ZodType construction. Hooked into the `ZodType` `$constructor` (rather than a top-level `config(en())` in `external.ts`) so bundlers honoring `sideEffects: false` can't tree-shake it out — see #5953, #5725. An explicit `z.config(z.locales.xx())` call wins regardless of order, since this only sets the default when none is present.
function _ensureDefaultLocale() {
    if (!globalConfig.localeError)
        config(en());
}
// the default memoizer is read by the core container init, which runs before `ZodType.init`, so each container calls this first
function _ensureDefaultMemoizer() {
    if (!globalConfig.memoizer)
        config({ memoizer: memoizer() });
}
const ZodType = /*@__PURE__*/ $constructor("ZodType", (inst, def) => {
    _ensureDefaultLocale();
    $ZodType.init(inst, def);
    inst.def = def;
    inst.type = def.type;
    return inst;
}, {
    check(...chks) {
        const def = this.def;
        return this.clone(mergeDefs(def, {
            checks: [
                ...(def.checks ?? []),
                ...chks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch),
            ],
        }), { parent: true });
    },
    with(...chks) {
        return this.check(...chks);
    },
    clone(def, params) {
        return clone(this, def, params);
    },
    brand() {
        return this;
    },
    register(reg, meta) {
        reg.add(this, meta);
        return this;
    },
    refine(check, params) {
        return this.check(refine(check, params));
    },
    superRefine(refinement, params) {
        return this.check(superRefine(refinement, params));
    },
    overwrite(fn) {
        return this.check(_overwrite(fn));
    },
    optional() {
        return optional(this);
    },
    exactOptional() {
        return exactOptional(this);
    },
    nullable() {
        return nullable(this);
    },
    nullish() {
        return optional(nullable(this));
    },
    nonoptional(params) {
        return nonoptional(this, params);
    },
    array() {
        return array(this);
    },
    or(arg) {
        return union([this, arg]);
    },
    and(arg) {
        return intersection(this, arg);
    },
    transform(tx) {
        return pipe(this, transform(tx));
    },
    default(d) {
        return _default(this, d);
    },
    prefault(d) {
        return prefault(this, d);
    },
    catch(params) {
        return _catch(this, params);
    },
    pipe(target) {
        return pipe(this, target);
    },
    readonly() {
        return readonly(this);
    },
    describe(description) {
        const cl = this.clone();
        globalRegistry.add(cl, { description });
        return cl;
    },
    meta(...args) {
        // overloaded: meta() returns the registered metadata, meta(data) returns a clone with `data` registered. The mapped type picks up the second overload, so we accept variadic any-args and return `any` to satisfy both at runtime.
        if (args.length === 0)
            return globalRegistry.get(this);
        const cl = this.clone();
        globalRegistry.add(cl, args[0]);
        return cl;
    },
    isOptional() {
        return this.safeParse(undefined).success;
    },
    isNullable() {
        return this.safeParse(null).success;
    },
    apply(fn, ...args) {
        return args.length === 0 ? fn(this) : fn(this, ...args);
    },
    // Overrides core's `~standard` to add `jsonSchema`. Must stay a prototype entry: redefining it per instance demotes instances to dictionary mode.
    get "~standard"() {
        return hide(this, "~standard", {
            ...standardProps(this),
            jsonSchema: {
                input: createStandardJSONSchemaMethod(this, "input"),
                output: createStandardJSONSchemaMethod(this, "output"),
            },
        });
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
    parse: function _parse(data, params) {
        return parse(this, data, params, { callee: _parse });
    },
    parseAsync: async function _parseAsync(data, params) {
        return await parseAsync(this, data, params, { callee: _parseAsync });
    },
    safeParse(data, params) {
        return safeParse(this, data, params);
    },
    async safeParseAsync(data, params) {
        return safeParseAsync(this, data, params);
    },
    // `spa` is an alias: same function object as `safeParseAsync`, as before.
    get spa() {
        return this?.safeParseAsync;
    },
    set spa(value) {
        own(this, "spa", value);
    },
    validate(data, params) {
        return validate(this, data, params);
    },
    validateAsync(data, params) {
        return validateAsync$1(this, data, params);
    },
    encode: function _encode(data, params) {
        return encode(this, data, params, { callee: _encode });
    },
    decode: function _decode(data, params) {
        return decode(this, data, params, { callee: _decode });
    },
    encodeAsync: async function _encodeAsync(data, params) {
        return await encodeAsync(this, data, params, { callee: _encodeAsync });
    },
    decodeAsync: async function _decodeAsync(data, params) {
        return await decodeAsync(this, data, params, { callee: _decodeAsync });
    },
    safeEncode(data, params) {
        return safeEncode(this, data, params);
    },
    safeDecode(data, params) {
        return safeDecode(this, data, params);
    },
    async safeEncodeAsync(data, params) {
        return safeEncodeAsync(this, data, params);
    },
    async safeDecodeAsync(data, params) {
        return safeDecodeAsync(this, data, params);
    },
    toJSONSchema(params) {
        return createToJSONSchemaMethod(this, {})(params);
    },
    // Reads through to the registry on every access, so it must not cache.
    get description() {
        return globalRegistry.get(this)?.description;
    },
    // No setter: `schema._def = x` throws, as it did when `_def` was a non-writable own property.
    get _def() {
        return this._zod.def;
    },
});
/** @internal */
const _ZodString = /*@__PURE__*/ $constructor("_ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => stringProcessor(inst, ctx, json);
}, 
/*@__PURE__*/ derived({
    format: (inst) => aggregateChecks(inst).format ?? null,
    minLength: (inst) => aggregateChecks(inst).minimum ?? null,
    maxLength: (inst) => aggregateChecks(inst).maximum ?? null,
}, {
    regex(...args) {
        return this.check(_regex(...args));
    },
    includes(...args) {
        return this.check(_includes(...args));
    },
    startsWith(...args) {
        return this.check(_startsWith(...args));
    },
    endsWith(...args) {
        return this.check(_endsWith(...args));
    },
    min(...args) {
        return this.check(_minLength(...args));
    },
    max(...args) {
        return this.check(_maxLength(...args));
    },
    length(...args) {
        return this.check(_length(...args));
    },
    nonempty(...args) {
        return this.check(_minLength(1, ...args));
    },
    lowercase(params) {
        return this.check(_lowercase(params));
    },
    uppercase(params) {
        return this.check(_uppercase(params));
    },
    trim() {
        return this.check(_trim());
    },
    normalize(...args) {
        return this.check(_normalize(...args));
    },
    toLowerCase() {
        return this.check(_toLowerCase());
    },
    toUpperCase() {
        return this.check(_toUpperCase());
    },
    slugify() {
        return this.check(_slugify());
    },
}));
const ZodString = /*@__PURE__*/ $constructor("ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    _ZodString.init(inst, def);
}, {
    email(params) {
        return this.check(_email(ZodEmail, params));
    },
    url(params) {
        return this.check(_url(ZodURL, params));
    },
    jwt(params) {
        return this.check(_jwt(ZodJWT, params));
    },
    emoji(params) {
        return this.check(_emoji(ZodEmoji, params));
    },
    guid(params) {
        return this.check(_guid(ZodGUID, params));
    },
    uuid(params) {
        return this.check(_uuid(ZodUUID, params));
    },
    uuidv4(params) {
        return this.check(_uuidv4(ZodUUID, params));
    },
    uuidv6(params) {
        return this.check(_uuidv6(ZodUUID, params));
    },
    uuidv7(params) {
        return this.check(_uuidv7(ZodUUID, params));
    },
    nanoid(params) {
        return this.check(_nanoid(ZodNanoID, params));
    },
    cuid(params) {
        return this.check(_cuid(ZodCUID, params));
    },
    cuid2(params) {
        return this.check(_cuid2(ZodCUID2, params));
    },
    ulid(params) {
        return this.check(_ulid(ZodULID, params));
    },
    base64(params) {
        return this.check(_base64(ZodBase64, params));
    },
    base64url(params) {
        return this.check(_base64url(ZodBase64URL, params));
    },
    xid(params) {
        return this.check(_xid(ZodXID, params));
    },
    ksuid(params) {
        return this.check(_ksuid(ZodKSUID, params));
    },
    ipv4(params) {
        return this.check(_ipv4(ZodIPv4, params));
    },
    ipv6(params) {
        return this.check(_ipv6(ZodIPv6, params));
    },
    cidrv4(params) {
        return this.check(_cidrv4(ZodCIDRv4, params));
    },
    cidrv6(params) {
        return this.check(_cidrv6(ZodCIDRv6, params));
    },
    e164(params) {
        return this.check(_e164(ZodE164, params));
    },
    datetime(params) {
        return this.check(_isoDateTime(ZodISODateTime, params));
    },
    date(params) {
        return this.check(_isoDate(ZodISODate, params));
    },
    time(params) {
        return this.check(_isoTime(ZodISOTime, params));
    },
    duration(params) {
        return this.check(_isoDuration(ZodISODuration, params));
    },
});
function string(params) {
    return _string(ZodString, params);
}
const ZodStringFormat = /*@__PURE__*/ $constructor("ZodStringFormat", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    _ZodString.init(inst, def);
});
const ZodISODateTime = /*@__PURE__*/ $constructor("ZodISODateTime", (inst, def) => {
    $ZodISODateTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodISODate = /*@__PURE__*/ $constructor("ZodISODate", (inst, def) => {
    $ZodISODate.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodISOTime = /*@__PURE__*/ $constructor("ZodISOTime", (inst, def) => {
    $ZodISOTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodISODuration = /*@__PURE__*/ $constructor("ZodISODuration", (inst, def) => {
    $ZodISODuration.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodEmail = /*@__PURE__*/ $constructor("ZodEmail", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmail.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodGUID = /*@__PURE__*/ $constructor("ZodGUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodGUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodUUID = /*@__PURE__*/ $constructor("ZodUUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodUUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodURL = /*@__PURE__*/ $constructor("ZodURL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodURL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodEmoji = /*@__PURE__*/ $constructor("ZodEmoji", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmoji.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodNanoID = /*@__PURE__*/ $constructor("ZodNanoID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodNanoID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const ZodCUID = /*@__PURE__*/ $constructor("ZodCUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodCUID2 = /*@__PURE__*/ $constructor("ZodCUID2", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID2.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodULID = /*@__PURE__*/ $constructor("ZodULID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodULID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodXID = /*@__PURE__*/ $constructor("ZodXID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodXID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodKSUID = /*@__PURE__*/ $constructor("ZodKSUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodKSUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodIPv4 = /*@__PURE__*/ $constructor("ZodIPv4", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodIPv6 = /*@__PURE__*/ $constructor("ZodIPv6", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodCIDRv4 = /*@__PURE__*/ $constructor("ZodCIDRv4", (inst, def) => {
    $ZodCIDRv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodCIDRv6 = /*@__PURE__*/ $constructor("ZodCIDRv6", (inst, def) => {
    $ZodCIDRv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodBase64 = /*@__PURE__*/ $constructor("ZodBase64", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodBase64URL = /*@__PURE__*/ $constructor("ZodBase64URL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64URL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodE164 = /*@__PURE__*/ $constructor("ZodE164", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodE164.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodJWT = /*@__PURE__*/ $constructor("ZodJWT", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodJWT.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodNumber = /*@__PURE__*/ $constructor("ZodNumber", (inst, def) => {
    $ZodNumber.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => numberProcessor(inst, ctx, json, params);
    inst.isFinite = true;
}, 
/*@__PURE__*/ derived({
    minValue: (inst) => {
        const { minimum, exclusiveMinimum } = aggregateChecks(inst);
        return Math.max(minimum ?? Number.NEGATIVE_INFINITY, exclusiveMinimum ?? Number.NEGATIVE_INFINITY);
    },
    maxValue: (inst) => {
        const { maximum, exclusiveMaximum } = aggregateChecks(inst);
        return Math.min(maximum ?? Number.POSITIVE_INFINITY, exclusiveMaximum ?? Number.POSITIVE_INFINITY);
    },
    isInt: (inst) => {
        const { isInt, multipleOf } = aggregateChecks(inst);
        return !!isInt || !!multipleOf?.some(Number.isSafeInteger);
    },
    format: (inst) => aggregateChecks(inst).format ?? null,
}, {
    gt(value, params) {
        return this.check(_gt(value, params));
    },
    gte(value, params) {
        return this.check(_gte(value, params));
    },
    min(value, params) {
        return this.check(_gte(value, params));
    },
    lt(value, params) {
        return this.check(_lt(value, params));
    },
    lte(value, params) {
        return this.check(_lte(value, params));
    },
    max(value, params) {
        return this.check(_lte(value, params));
    },
    int(params) {
        return this.check(int(params));
    },
    safe(params) {
        return this.check(int(params));
    },
    positive(params) {
        return this.check(_gt(0, params));
    },
    nonnegative(params) {
        return this.check(_gte(0, params));
    },
    negative(params) {
        return this.check(_lt(0, params));
    },
    nonpositive(params) {
        return this.check(_lte(0, params));
    },
    multipleOf(value, params) {
        return this.check(_multipleOf(value, params));
    },
    step(value, params) {
        return this.check(_multipleOf(value, params));
    },
    finite() {
        return this;
    },
}));
function number(params) {
    return _number(ZodNumber, params);
}
const ZodNumberFormat = /*@__PURE__*/ $constructor("ZodNumberFormat", (inst, def) => {
    $ZodNumberFormat.init(inst, def);
    ZodNumber.init(inst, def);
});
function int(params) {
    return _int(ZodNumberFormat, params);
}
const ZodBoolean = /*@__PURE__*/ $constructor("ZodBoolean", (inst, def) => {
    $ZodBoolean.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => booleanProcessor(inst, ctx, json);
});
function boolean(params) {
    return _boolean(ZodBoolean, params);
}
const ZodUnknown = /*@__PURE__*/ $constructor("ZodUnknown", (inst, def) => {
    $ZodUnknown.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unknownProcessor();
});
function unknown() {
    return _unknown(ZodUnknown);
}
const ZodNever = /*@__PURE__*/ $constructor("ZodNever", (inst, def) => {
    $ZodNever.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => neverProcessor(inst, ctx, json);
});
function never(params) {
    return _never(ZodNever, params);
}
const ZodArray = /*@__PURE__*/ $constructor("ZodArray", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodArray.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => arrayProcessor(inst, ctx, json, params);
    inst.element = def.element;
}, {
    min(n, params) {
        return this.check(_minLength(n, params));
    },
    nonempty(params) {
        return this.check(_minLength(1, params));
    },
    max(n, params) {
        return this.check(_maxLength(n, params));
    },
    length(n, params) {
        return this.check(_length(n, params));
    },
    unwrap() {
        return this.element;
    },
});
function array(element, params) {
    return _array(ZodArray, element, params);
}
const ZodObject = /*@__PURE__*/ $constructor("ZodObject", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodObjectJIT.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => objectProcessor(inst, ctx, json, params);
    installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
}, {
    keyof() {
        return _enum(Object.keys(this._zod.def.shape));
    },
    catchall(catchall) {
        // `mergeDefs` rather than a spread: spreading reads `shape`, and resolving it can mint a whole fresh subtree
        return this.clone(mergeDefs(this._zod.def, { catchall: catchall }));
    },
    passthrough() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    loose() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    strict() {
        return this.clone(mergeDefs(this._zod.def, { catchall: never() }));
    },
    strip() {
        return this.clone(mergeDefs(this._zod.def, { catchall: undefined }));
    },
    extend(incoming) {
        return extend(this, incoming);
    },
    safeExtend(incoming) {
        return safeExtend(this, incoming);
    },
    merge(other) {
        return merge(this, other);
    },
    pick(mask) {
        return pick(this, mask);
    },
    omit(mask) {
        return omit(this, mask);
    },
    partial(...args) {
        return partial(ZodOptional, this, args[0]);
    },
    exactPartial(...args) {
        return partial(ZodExactOptional, this, args[0], "exactPartial");
    },
    required(...args) {
        return required(ZodNonOptional, this, args[0]);
    },
});
function object(shape, params) {
    const def = {
        type: "object",
        shape: shape ?? {},
        ...normalizeParams(params),
    };
    return new ZodObject(def);
}
// looseObject
function looseObject(shape, params) {
    return new ZodObject({
        type: "object",
        shape,
        catchall: unknown(),
        ...normalizeParams(params),
    });
}
const ZodUnion = /*@__PURE__*/ $constructor("ZodUnion", (inst, def) => {
    $ZodUnion.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unionProcessor(inst, ctx, json, params);
    inst.options = def.options;
});
function union(options, params) {
    return new ZodUnion({
        type: "union",
        options: options,
        ...normalizeParams(params),
    });
}
const ZodIntersection = /*@__PURE__*/ $constructor("ZodIntersection", (inst, def) => {
    $ZodIntersection.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => intersectionProcessor(inst, ctx, json, params);
});
function intersection(left, right) {
    return new ZodIntersection({
        type: "intersection",
        left: left,
        right: right,
    });
}
const ZodRecord = /*@__PURE__*/ $constructor("ZodRecord", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodRecord.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => recordProcessor(inst, ctx, json, params);
    inst.keyType = def.keyType;
    inst.valueType = def.valueType;
});
function record(keyType, valueType, params) {
    // v3-compat: z.record(valueType, params?) — defaults keyType to z.string()
    if (!valueType || !valueType._zod) {
        return new ZodRecord({
            type: "record",
            keyType: string(),
            valueType: keyType,
            ...normalizeParams(valueType),
        });
    }
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...normalizeParams(params),
    });
}
const ZodEnum = /*@__PURE__*/ $constructor("ZodEnum", (inst, def) => {
    $ZodEnum.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => enumProcessor(inst, ctx, json);
    inst.enum = def.entries;
    // reuse the parsed value set so a numeric TS enum's reverse-mapping keys stay out
    inst.options = [...inst._zod.values];
    const keys = new Set(Object.keys(def.entries));
    inst.extract = (values, params) => {
        const newEntries = {};
        for (const value of values) {
            if (keys.has(value)) {
                newEntries[value] = def.entries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
    inst.exclude = (values, params) => {
        const newEntries = { ...def.entries };
        for (const value of values) {
            if (keys.has(value)) {
                delete newEntries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
});
function _enum(values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    return new ZodEnum({
        type: "enum",
        entries,
        ...normalizeParams(params),
    });
}
const ZodTransform = /*@__PURE__*/ $constructor("ZodTransform", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodTransform.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => transformProcessor(inst, ctx, json, params);
    inst._zod.parse = (payload, _ctx) => {
        if (_ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        payload.addIssue = (issue$1) => {
            if (typeof issue$1 === "string") {
                payload.issues.push(issue(issue$1, payload.value, def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue$1;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = inst);
                // _issue.continue ??= true;
                payload.issues.push(issue(_issue));
            }
        };
        const output = def.transform(payload.value, payload);
        if (output instanceof Promise) {
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        payload.value = output;
        return payload;
    };
});
function transform(fn) {
    return new ZodTransform({
        type: "transform",
        transform: fn,
    });
}
const ZodOptional = /*@__PURE__*/ $constructor("ZodOptional", (inst, def) => {
    $ZodOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function optional(innerType) {
    return new ZodOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodExactOptional = /*@__PURE__*/ $constructor("ZodExactOptional", (inst, def) => {
    $ZodExactOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function exactOptional(innerType) {
    return new ZodExactOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodNullable = /*@__PURE__*/ $constructor("ZodNullable", (inst, def) => {
    $ZodNullable.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nullableProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nullable(innerType) {
    return new ZodNullable({
        type: "nullable",
        innerType: innerType,
    });
}
const ZodDefault = /*@__PURE__*/ $constructor("ZodDefault", (inst, def) => {
    $ZodDefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => defaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeDefault = inst.unwrap;
});
function _default(innerType, defaultValue) {
    return new ZodDefault({
        type: "default",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodPrefault = /*@__PURE__*/ $constructor("ZodPrefault", (inst, def) => {
    $ZodPrefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => prefaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function prefault(innerType, defaultValue) {
    return new ZodPrefault({
        type: "prefault",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodNonOptional = /*@__PURE__*/ $constructor("ZodNonOptional", (inst, def) => {
    $ZodNonOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nonoptionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nonoptional(innerType, params) {
    return new ZodNonOptional({
        type: "nonoptional",
        innerType: innerType,
        ...normalizeParams(params),
    });
}
const ZodCatch = /*@__PURE__*/ $constructor("ZodCatch", (inst, def) => {
    $ZodCatch.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => catchProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeCatch = inst.unwrap;
});
function _catch(innerType, catchValue) {
    return new ZodCatch({
        type: "catch",
        innerType: innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : constantCatch(catchValue)),
    });
}
const ZodPipe = /*@__PURE__*/ $constructor("ZodPipe", (inst, def) => {
    $ZodPipe.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => pipeProcessor(inst, ctx, json, params);
    inst.in = def.in;
    inst.out = def.out;
});
function pipe(in_, out) {
    return new ZodPipe({
        type: "pipe",
        in: in_,
        out: out,
        // ...util.normalizeParams(params),
    });
}
const ZodReadonly = /*@__PURE__*/ $constructor("ZodReadonly", (inst, def) => {
    $ZodReadonly.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => readonlyProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function readonly(innerType) {
    return new ZodReadonly({
        type: "readonly",
        innerType: innerType,
    });
}
const ZodCustom = /*@__PURE__*/ $constructor("ZodCustom", (inst, def) => {
    $ZodCustom.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => customProcessor(inst, ctx, json, params);
});
function custom(fn, _params) {
    return _custom(ZodCustom, fn ?? (() => true), _params);
}
function refine(fn, _params = {}) {
    return _refine(ZodCustom, fn, _params);
}
// superRefine
function superRefine(fn, params) {
    return _superRefine(fn, params);
}

// bk-ci's wire dialect: its two result wrappers, its error bodies, the query parameters that
// hold secrets. Used by the client and by the token endpoint.
/**
 * Both of bk-ci's wrappers: the common `Result` ({status, message, data}) and the project
 * `Result` ({code, message, data, request_id, result}). Absent and null are the same.
 */
const envelope = object({
    status: number().int().nullish(),
    code: number().int().nullish(),
    message: string().nullish(),
    data: unknown().optional(),
});
const errorBody = object({
    status: number().optional(),
    code: number().optional(),
    /** Set by the BlueKing API Gateway on its own refusals. */
    code_name: string().optional(),
    message: string().nullish(),
});
/** What to check for each of the BlueKing API Gateway's own refusals (bk-apigateway's errorx.lua). */
const GATEWAY_HINTS = {
    1640101: 'the gateway could not verify the app: check app-code and app-secret',
    1640102: 'the gateway could not verify the user: check bk-token (a login ticket) or access-token (a gateway token), which may have expired',
    1640301: "the app has not been granted this resource on the gateway: ask the gateway's operators to grant it (every apigw-app resource needs a grant)",
    1640001: "the gateway refused the request's arguments",
    1640401: 'the gateway publishes no such resource: check that base-url is the stage root (…/api/devops/prod) and the path',
    1642901: "the gateway's rate limit: retried after Retry-After",
    1642902: "the gateway's rate limit: retried after Retry-After",
    1642904: "the gateway's concurrency limit: retried after Retry-After",
};
/** A refusal by the BlueKing API Gateway itself, said with its code name and what to check. */
function gatewayRefusal(code, codeName, message) {
    const hint = GATEWAY_HINTS[code];
    return `the BlueKing API Gateway refused the call: ${codeName} (${code})${message ? `, "${message}"` : ''}${hint === undefined ? '' : `; ${hint}`}`;
}
/**
 * What a bk-ci error body says: its JSON wrapper's message and code, plain text (its token
 * filter), or an HTML page collapsed to text. Secrets go before the text is cut.
 */
function readError(res, scrub) {
    const text = stripBom(res.body).trim();
    // The gateway's refusals say who they are in headers too, whatever the body.
    const headerCode = Number(res.headers['x-bkapi-error-code'] ?? Number.NaN);
    if (text.startsWith('{')) {
        try {
            const parsed = errorBody.safeParse(JSON.parse(text));
            if (parsed.success && parsed.data.code_name !== undefined && parsed.data.code !== undefined)
                return {
                    message: cut(scrub(gatewayRefusal(parsed.data.code, parsed.data.code_name, parsed.data.message ?? '')), 600),
                    serverStatus: parsed.data.code,
                };
            if (parsed.success) {
                const serverStatus = parsed.data.code ?? parsed.data.status;
                return { message: cut(scrub(unfilled(parsed.data.message ?? '')), 500), ...(serverStatus === undefined ? {} : { serverStatus }) };
            }
        }
        catch {
            // not JSON after all: shown as text
        }
    }
    if (Number.isInteger(headerCode))
        return {
            message: cut(scrub(gatewayRefusal(headerCode, 'gateway error', res.headers['x-bkapi-error-message'] ?? collapse(text))), 600),
            serverStatus: headerCode,
        };
    return { message: cut(scrub(collapse(text)), 300) };
}
/** bk-ci sometimes leaves a message placeholder unfilled (`参数校验失败:{0} Invalid buildId…`): never shown as `{0}`. */
const unfilled = (message) => message.replace(/\{\d+\}\s*/g, '');
const SECRET_PARAMS = new Set(['access_token', 'secrettoken']);
/** The URL with the values of `access_token` and `secretToken` replaced; nothing else changes. */
function redactUrl(url) {
    const q = url.indexOf('?');
    if (q === -1)
        return url;
    const hash = url.indexOf('#', q);
    const query = url.slice(q + 1, hash === -1 ? undefined : hash);
    const redacted = query
        .split('&')
        .map((pair) => {
        const eq = pair.indexOf('=');
        const name = eq === -1 ? pair : pair.slice(0, eq);
        let decoded = name;
        try {
            decoded = decodeURIComponent(name);
        }
        catch {
            // a malformed name is kept as it is
        }
        return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=***` : pair;
    })
        .join('&');
    return `${url.slice(0, q)}?${redacted}`;
}
/** The body as JSON; a byte order mark before it is allowed, as curl and browsers allow it. */
function parseJson(res, method, url, scrub, exact = false) {
    const text = stripBom(res.body);
    try {
        return exact ? parseExact(text) : JSON.parse(text);
    }
    catch (e) {
        const detail = text.trim() === ''
            ? 'an empty body'
            : `not valid JSON (${cut(scrub(e instanceof Error ? e.message : String(e)), 200)}); it begins ${JSON.stringify(cut(scrub(text), 80))}`;
        throw new ResponseFormatError({ method, url, status: res.status, detail, cause: e });
    }
}
/** The `data` of a wrapped answer, checked: undefined when the server sent none. */
function unwrap(value, schema, res, method, url, scrub) {
    const env = envelope.safeParse(value);
    if (!env.success || typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ResponseFormatError({ method, url, status: res.status, detail: 'not a bk-ci result object' });
    }
    const serverStatus = env.data.code ?? env.data.status;
    if (serverStatus === undefined || serverStatus === null) {
        throw new ResponseFormatError({ method, url, status: res.status, detail: 'the result has neither "status" nor "code"' });
    }
    if (serverStatus !== 0) {
        throw new WrapperStatusError({ method, url, status: res.status, serverStatus, serverMessage: cut(scrub(env.data.message ?? ''), 500) });
    }
    if (env.data.data === undefined || env.data.data === null)
        return undefined;
    return checked(env.data.data, schema, res, method, url);
}
function checked(value, schema, res, method, url) {
    const parsed = schema.safeParse(value);
    if (parsed.success)
        return parsed.data;
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'data'}: ${i.message}`);
    throw new ResponseFormatError({
        method,
        url,
        status: res.status,
        detail: `data does not have the expected shape (${issues.join('; ')})`,
        cause: parsed.error,
    });
}

// Where the access token comes from: given (access-token), or issued by the token endpoint
// (with bk-token, or without a cookie), masked at once, renewed before it runs out and once
// more when bk-ci says it expired. And what bk-ci's token errors mean.
/**
 * When a token stops working, as far as the action can tell: the token endpoint's
 * `expirationTime` in ms, or in seconds where only that reading lies ahead (some gateways send
 * 10 digits). Undefined when it cannot be an instant (beyond year 275760, 2^63-1) or is already
 * past when the token arrives: the token is then renewed only when bk-ci says it expired, never
 * on every request.
 */
function expiresAt(expirationTime, now) {
    if (!Number.isFinite(expirationTime) || expirationTime > MAX_DATE_MS)
        return undefined;
    if (expirationTime > now)
        return expirationTime;
    return expirationTime < 1e11 && expirationTime * 1000 > now ? expirationTime * 1000 : undefined;
}
/** `access-token` from the workflow: used as it is, never renewed. */
class GivenToken {
    kind = 'given';
    #creds;
    constructor(token, userId) {
        this.#creds = { token, userId };
    }
    get user() {
        return this.#creds.userId;
    }
    current() {
        return Promise.resolve(this.#creds);
    }
    renewAfterExpiry() {
        return Promise.resolve(false);
    }
}
/** Tokens from the token endpoint (with `bk-token`, or without a cookie): fetched, masked, renewed. */
class IssuedTokens {
    kind = 'issued';
    #o;
    #info;
    #expiresAt;
    #pending;
    renewals = 0;
    constructor(options) {
        this.#o = options;
    }
    /** The last token obtained, if any. */
    get info() {
        return this.#info;
    }
    get user() {
        return this.#o.userId ?? this.#info?.userId;
    }
    async current() {
        const info = this.#info;
        const margin = this.#o.renewMarginMs ?? 60_000;
        const usable = info !== undefined && (this.#expiresAt === undefined || this.#expiresAt - this.#o.clock.now() >= margin);
        const fresh = usable ? info : await this.#renew();
        return { token: fresh.accessToken, userId: this.#o.userId ?? fresh.userId };
    }
    async renewAfterExpiry() {
        this.#o.log.info('bk-ci says the access token expired; getting a new one');
        await this.#renew();
        return true;
    }
    /** One request at a time, however many callers ask. */
    #renew() {
        this.#pending ??= this.#fetch().finally(() => {
            this.#pending = undefined;
        });
        return this.#pending;
    }
    async #fetch() {
        const had = this.#info !== undefined;
        const info = await this.#o.issue();
        // Masked before anything else can print it.
        this.#o.secrets.add(info.accessToken);
        this.#info = info;
        this.#expiresAt = expiresAt(info.expirationTime, this.#o.clock.now());
        if (this.#expiresAt === undefined)
            this.#o.log.warning(`the token endpoint says the token expires at ${utcTime(info.expirationTime, info.expirationText)}, which is not a time still to come; the action will renew it only when bk-ci says it expired`);
        if (had) {
            this.renewals++;
            this.#o.log.info(`renewed the access token; the new one expires at ${utcTime(info.expirationTime, info.expirationText)}`);
        }
        return info;
    }
}
/**
 * What an error says about the token, in either dialect: the spec's HTTP 401 JSON, or bk-ci's
 * HTTP 400 plain text from AccessTokenFilter (`Verification failed : … Access token expired in: <ms>`).
 */
function tokenProblem(error) {
    if (!(error instanceof HttpError) || (error.status !== 400 && error.status !== 401))
        return undefined;
    const m = error.serverMessage;
    const at = /expired in:\s*(\d{10,})/i.exec(m)?.[1];
    if (at !== undefined)
        return { kind: 'expired', at: Number(at), written: at };
    if (/token\W{0,3}\w{0,12}\W{0,3}expir|token过期/i.test(m))
        return { kind: 'expired' };
    if (/accessToken is empty|access token is empty/i.test(m))
        return { kind: 'empty' };
    if (/token\s*(illegal|invalid)|Access token (illegal|invalid)|token参数非法/i.test(m))
        return { kind: 'illegal' };
    if (/^Verification failed/i.test(m))
        return { kind: 'illegal' };
    return error.status === 401 ? { kind: 'refused' } : undefined;
}
/** A message that says what went wrong with the token and what to do about it. */
function describeTokenProblem(problem, tokens, cause, afterRenewal, now) {
    const said = cause instanceof HttpError ? ` (HTTP ${cause.status}: ${cause.serverMessage})` : '';
    const status = cause instanceof HttpError ? cause.status : undefined;
    const opts = { cause, ...(status === undefined ? {} : { status }) };
    switch (problem.kind) {
        case 'expired': {
            const when = problem.at === undefined ? '' : ` at ${utcTime(problem.at, problem.written)}`;
            if (tokens.kind === 'given') {
                const ago = problem.at === undefined || problem.at > now ? '' : `, ${formatDuration(now - problem.at)} ago`;
                return new AuthError(`the access-token expired${when}${ago}${said}. bk-ci tokens live a few hours; get a new one from the token endpoint and update the secret, or give bk-token instead so that the action gets and renews tokens itself.`, problem, opts);
            }
            return new AuthError(`bk-ci says the access token expired${when}${afterRenewal ? ' even right after it was renewed' : ''}${said}: check that the server's clock is right and its token lifetime longer than a request takes.`, problem, opts);
        }
        case 'empty':
            return new AuthError(`bk-ci received no access token${said}. Set access-token (with user-id) or bk-token.`, problem, opts);
        case 'illegal':
            return new AuthError(`bk-ci rejected the access token as illegal${said}. Pass it exactly as the token endpoint issued it (already percent-encoded: do not decode it or encode it again), and check that it was issued by this bk-ci installation.`, problem, opts);
        case 'refused':
            return new AuthError(`bk-ci refused the credentials${said}. Check access-token and user-id, or bk-token.`, problem, opts);
    }
}
/** The token endpoint: not under the OpenAPI, and only on bk-ci's own gateway. */
const TOKEN_ENDPOINT = { method: 'GET', path: { 'bk-ci': '/ms/auth/api/user/token/get', 'bk-apigateway': null } };
/** `expirationTime` kept as written too: 2^63-1 and friends are not exact as doubles. */
const tokenInfo = object({
    userId: string(),
    expirationTime: union([number(), custom((v) => JSON.isRawJSON(v))]),
    accessToken: string().min(1),
})
    .transform(({ expirationTime: e, ...rest }) => ({
    ...rest,
    expirationTime: typeof e === 'number' ? e : Number(e.rawJSON),
    expirationText: typeof e === 'number' ? String(e) : e.rawJSON,
}));
/**
 * GET the token endpoint with the `bk_token` login cookie (or none). bk-ci's code wraps the
 * answer in the common Result; its docs show the bare object. Both are accepted.
 */
async function issueToken(o) {
    const url = `${o.baseUrl}${resolvePath(TOKEN_ENDPOINT, 'bk-ci') ?? ''}`;
    const headers = { accept: 'application/json' };
    if (o.bkToken !== undefined)
        headers.cookie = `bk_token=${o.bkToken}`;
    let res;
    try {
        res = await o.http.call({ method: 'GET', url, shownUrl: url, headers, ...(o.deadline === undefined ? {} : { deadline: o.deadline }) });
    }
    catch (e) {
        if (e instanceof HttpError && e.status === 401) {
            throw new AuthError(o.bkToken === undefined
                ? `the token endpoint refused a request without a login ticket (HTTP 401: ${e.serverMessage}). Set access-token (with user-id) or bk-token.`
                : `the token endpoint refused bk-token (HTTP 401: ${e.serverMessage}): the BlueKing login ticket has expired or belongs to another installation. Log in again and store the new bk_token cookie as the secret.`, { kind: 'refused' }, { cause: e, status: 401 });
        }
        throw e;
    }
    const scrub = (t) => o.http.scrub(t);
    const value = parseJson(res, 'GET', url, scrub, true);
    const bare = typeof value === 'object' && value !== null && 'accessToken' in value;
    const info = bare ? checked(value, tokenInfo, res, 'GET', url) : unwrap(value, tokenInfo, res, 'GET', url, scrub);
    if (info === undefined)
        throw new ResponseFormatError({ method: 'GET', url, status: res.status, detail: 'the token result has no data' });
    return info;
}

/** The bk-ci OpenAPI: paths per gateway, headers, the token in the query, both wrappers, renewal on expiry. */
class BkciApi {
    #http;
    #o;
    constructor(http, options) {
        this.#http = http;
        this.#o = options;
    }
    get gateway() {
        return this.#o.gateway;
    }
    async call(spec) {
        // The gateway verifies the credentials itself: nothing to renew, its refusals speak for themselves.
        if (this.#o.gatewayAuth !== undefined)
            return this.#once(spec, undefined);
        try {
            return await this.#once(spec, await this.#o.tokens.current());
        }
        catch (e) {
            const problem = tokenProblem(e);
            if (problem === undefined)
                throw e;
            if (problem.kind === 'expired' && (await this.#o.tokens.renewAfterExpiry())) {
                try {
                    return await this.#once(spec, await this.#o.tokens.current());
                }
                catch (again) {
                    const second = tokenProblem(again);
                    if (second === undefined)
                        throw again;
                    throw describeTokenProblem(second, this.#o.tokens, again, true, this.#o.clock.now());
                }
            }
            throw describeTokenProblem(problem, this.#o.tokens, e, false, this.#o.clock.now());
        }
    }
    async #once(spec, creds) {
        const { method } = spec.endpoint;
        const gw = this.#o.gatewayAuth;
        const path = resolvePath(spec.endpoint, this.#o.gateway, spec.params, gw?.type);
        if (path === undefined)
            throw new Error(`${method} ${spec.endpoint.path['bk-ci']} is not published on the ${this.#o.gateway} gateway`);
        const query = Object.entries(spec.query ?? {})
            .flatMap(([k, v]) => (v === undefined ? [] : typeof v === 'string' ? [[k, v]] : v.map((item) => [k, item])))
            .map(([k, v]) => `&${encodeURIComponent(k ?? '')}=${encodeURIComponent(v ?? '')}`)
            .join('');
        // bk-ci's own gateway takes the token in the query, already percent-encoded by bk-ci: sent
        // exactly as issued, never re-encoded. The BlueKing API Gateway takes none there.
        const url = creds === undefined
            ? `${this.#o.baseUrl}${path}${query === '' ? '' : `?${query.slice(1)}`}`
            : `${this.#o.baseUrl}${path}?access_token=${creds.token}${query}`;
        const shownUrl = redactUrl(url);
        const shown = shownUrl.split('?')[0] ?? shownUrl;
        const user = creds?.userId ?? gw?.user;
        const headers = { accept: 'application/json', 'content-type': 'application/json' };
        // Whenever the user is known: bk-ci trusts it behind the gateway unless its JWT filter is on.
        if (user !== undefined && user !== '')
            headers['x-devops-uid'] = user;
        if (gw !== undefined)
            headers['x-bkapi-authorization'] = gw.header;
        if (this.#o.appCode !== undefined)
            headers['x-devops-app-code'] = this.#o.appCode;
        const body = method === 'GET' || (method === 'DELETE' && spec.body === undefined) ? undefined : JSON.stringify(spec.body ?? {});
        const res = await this.#http.call({
            method,
            url,
            shownUrl,
            headers,
            ...(body === undefined ? {} : { body }),
            ...(this.#o.deadline === undefined ? {} : { deadline: this.#o.deadline }),
            ...(spec.detached === undefined ? {} : { detached: spec.detached }),
        });
        const scrub = (t) => this.#http.scrub(t);
        const data = unwrap(parseJson(res, method, shown, scrub, spec.exact), spec.data, res, method, shown, scrub);
        return { data, status: res.status, user: user ?? '' };
    }
}

const USER_AGENT = 'bkci-action/0.1';
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/**
 * The client: HTTP with retries, the token source the inputs call for (a given access-token, or
 * tokens from the token endpoint with bk-token or without a cookie), and the openapi on top.
 */
function connect(o) {
    const http = new HttpCaller({
        transport: o.transport,
        clock: o.clock,
        random: o.random,
        log: o.log,
        requestTimeoutMs: o.requestTimeoutMs,
        retry: { ...DEFAULT_RETRY_POLICY, retries: o.retries },
        signal: o.signal,
        maxBodyBytes: o.maxBodyBytes ?? MAX_BODY_BYTES,
        userAgent: USER_AGENT,
        scrub: (text) => o.secrets.redact(text),
        readError,
    });
    if (o.gateway === 'bk-apigateway') {
        const { header, type } = gatewayAuthorization(o);
        // The header carries the app secret and the user's credential: masked like them.
        o.secrets.add(header);
        const tokens = new GivenToken('', o.userId ?? '');
        const api = new BkciApi(http, { ...o, tokens, gatewayAuth: { header, type, user: o.userId } });
        return { tokens, api };
    }
    const tokens = o.accessToken !== undefined && o.bkToken === undefined
        ? new GivenToken(o.accessToken, o.userId ?? '')
        : new IssuedTokens({
            issue: () => issueToken({ http, baseUrl: o.baseUrl, bkToken: o.bkToken, deadline: o.deadline }),
            clock: o.clock,
            secrets: o.secrets,
            log: o.log,
            ...(o.userId === undefined ? {} : { userId: o.userId }),
            ...(o.renewMarginMs === undefined ? {} : { renewMarginMs: o.renewMarginMs }),
        });
    const api = new BkciApi(http, { ...o, tokens });
    return { tokens, api };
}
/**
 * `X-Bkapi-Authorization` for the BlueKing API Gateway: the app (code and secret) when given,
 * and one user credential: the login ticket, a gateway access token, or just a user name (which
 * the gateway does not verify). With an app the calls are app-state (`apigw-app`).
 */
function gatewayAuthorization(o) {
    const auth = {};
    const app = o.appCode !== undefined && o.appSecret !== undefined;
    if (app)
        Object.assign(auth, { bk_app_code: o.appCode, bk_app_secret: o.appSecret });
    if (o.bkToken !== undefined)
        auth.bk_token = o.bkToken;
    else if (o.accessToken !== undefined)
        auth.access_token = o.accessToken;
    else if (o.userId !== undefined)
        auth.bk_username = o.userId;
    return { header: JSON.stringify(auth), type: app ? 'apigw-app' : 'apigw-user' };
}

const systemClock = {
    now: () => Date.now(),
    sleep: (ms, signal) => new Promise((resolve, reject) => {
        if (signal?.aborted)
            return reject(signal.reason);
        const onAbort = () => {
            clearTimeout(timer);
            reject(signal?.reason);
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, Math.max(0, ms));
        signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

// bk-ci's pipeline builds (v4): where start, status and stop live, what a build's status says,
// and which statuses end a build. Facts: bkci-builds-callbacks-gateway.md §1.
const BUILD_START = onBoth('POST', 'v4/projects/{projectId}/build_start');
const BUILD_STATUS = onBoth('GET', 'v4/projects/{projectId}/build_status');
const BUILD_STOP = onBoth('POST', 'v4/projects/{projectId}/build_stop');
/** BuildId: what build_start answers. */
const buildId = object({ id: string().min(1), num: number().int().nullish(), pipelineId: string().nullish() });
/** BuildHistoryWithVars: the fields the action reads are checked; the rest passes through to `data`. */
const buildStatus$1 = looseObject({
    id: string(),
    buildNum: number().int().nullish(),
    status: string(),
    startTime: number().nullish(),
    endTime: number().nullish(),
    currentQueuePosition: number().int().nullish(),
    stageStatus: array(looseObject({
        stageId: string().nullish(),
        name: string().nullish(),
        status: string().nullish(),
        elapsed: number().nullish(),
    }))
        .nullish(),
    errorInfoList: array(looseObject({ taskName: string().nullish(), errorCode: number().nullish(), errorMsg: string().nullish() }))
        .nullish(),
});
/** Statuses that end a build badly (BuildStatus.isFailure), and CANCELED. */
const FAILED_STATUSES = [
    'FAILED',
    'TERMINATE',
    'QUEUE_TIMEOUT',
    'EXEC_TIMEOUT',
    'HEARTBEAT_TIMEOUT',
    'QUALITY_CHECK_FAIL',
    'REVIEW_ABORT',
    'QUOTA_FAILED',
    'CANCELED',
];
/** Every BuildStatus bk-ci has (CPIPE/enums/BuildStatus.kt): the others mean "not yet", silently. */
const KNOWN = new Set([
    ...FAILED_STATUSES,
    'SUCCEED',
    'RUNNING',
    'REVIEWING',
    'REVIEW_PROCESSED',
    'PREPARE_ENV',
    'UNEXEC',
    'SKIP',
    'QUEUE',
    'LOOP_WAITING',
    'CALL_WAITING',
    'TRY_FINALLY',
    'QUEUE_CACHE',
    'RETRY',
    'PAUSE',
    'STAGE_SUCCESS',
    'DEPENDENT_WAITING',
    'QUALITY_CHECK_PASS',
    'QUALITY_CHECK_WAIT',
    'TRIGGER_REVIEWING',
    'UNKNOWN',
]);
/**
 * Whether the build has ended. STAGE_SUCCESS is the trap: without endTime a stage waits for
 * manual review and the build goes on; with it, the build ended well at a stage.
 */
function buildEnd(s) {
    if (s.status === 'SUCCEED')
        return 'succeeded';
    if (s.status === 'STAGE_SUCCESS')
        return s.endTime ? 'succeeded' : 'waiting';
    return FAILED_STATUSES.includes(s.status) ? 'failed' : 'waiting';
}
const isKnownStatus = (status) => KNOWN.has(status);
/** The stage a review pause waits at: the one under review, else the first one not done. */
function reviewStage(s) {
    const stages = s.stageStatus ?? [];
    const waiting = stages.find((st) => st.status === 'REVIEWING') ?? stages.find((st) => !['SUCCEED', 'SKIP'].includes(st.status ?? ''));
    return waiting?.name ?? undefined;
}
/** What the build waits on, in words: "queued (position 3)", "waiting for review of stage 'Release'". */
function waitingOn$1(s) {
    if (s.status === 'QUEUE' || s.status === 'QUEUE_CACHE')
        return s.currentQueuePosition ? `queued (position ${s.currentQueuePosition})` : 'queued';
    if (s.status === 'STAGE_SUCCESS' && !s.endTime) {
        const stage = reviewStage(s);
        return stage === undefined ? 'waiting for a stage review' : `waiting for review of stage '${stage}'`;
    }
    return s.status;
}
/** The first error bk-ci recorded, in one line: "Deploy (2199001): host unreachable". */
function firstError(s) {
    const e = s.errorInfoList?.[0];
    if (e === undefined)
        return undefined;
    return `${e.taskName ?? 'a task'}${e.errorCode ? ` (${e.errorCode})` : ''}: ${e.errorMsg ?? 'no message'}`;
}
/** Start errors bk-ci gives by code, in words that say what to do. */
function startProblem(code, httpStatus, p, message) {
    const pipeline = `pipeline ${p.pipelineId} of project ${p.projectId}`;
    if (code === 2101038 || (httpStatus === 404 && code !== 2101163))
        return `${pipeline} was not found (bk-ci ${code ?? 404}): check pipeline-id (p-…) and project-id`;
    if (httpStatus === 403 || code === 2101008)
        return `${p.user} may not start ${pipeline}: the user needs the pipeline's execute permission`;
    if (code === 2101047)
        return `${pipeline} is locked (disabled): enable it in bk-ci's pipeline settings, or ask its managers`;
    if (code === 2101080)
        return `project ${p.projectId} is disabled in bk-ci, so no build can start`;
    if (code === 2101049)
        return `the build queue of ${pipeline} is full: wait for running builds, or raise the pipeline's queue size`;
    if (code === 2101020)
        return `${pipeline} is being started too often (bk-ci's limit): try again in a minute`;
    if (code === 2101190)
        return `${pipeline} has no released version, only a draft: release it in bk-ci first`;
    if (code === 2101254) {
        const name = /\[([^\]]+)\]/.exec(message)?.[1];
        return `a required start parameter${name === undefined ? '' : ` (${name})`} is missing: give it in build-params`;
    }
    return undefined;
}

// Input fields as zod schemas: the rules every operation shares for a kind of value, each with a
// message that names the input and says what is valid.
const bool = (name) => string().transform((v, ctx) => {
    if (/^(true|True|TRUE)$/.test(v))
        return true;
    if (/^(false|False|FALSE)$/.test(v))
        return false;
    ctx.addIssue({ code: 'custom', message: `${name} must be true or false, not "${v}"` });
    return NEVER;
});
const duration = (name, minMs, maxMs) => string().transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: `${name} "${v}" is not a duration; use 90 (seconds), 90s, 500ms, 5m, 1h or 1h30m` });
        return NEVER;
    }
    if (ms < minMs || ms > maxMs) {
        ctx.addIssue({ code: 'custom', message: `${name} must be between ${minMs / 1000}s and ${maxMs / 3_600_000}h, not ${v}` });
        return NEVER;
    }
    return ms;
});
/** One path segment: no empty value, no dot segment, no control characters. */
const segment = (name) => string()
    .refine((v) => v !== '.' && v !== '..' && ![...v].some((c) => isControl(c.charCodeAt(0))), `${name} cannot be "." or ".." or hold control characters`);
/**
 * A value that goes into a request header (or the bk_token cookie, or verbatim into the query)
 * as it is: no control characters (a line break would end the header) and nothing beyond
 * Latin-1, which is all a header can carry. Refused before any request, with the input named;
 * a secret's characters are not shown.
 */
const headerValue = (name, o = {}) => string().superRefine((v, ctx) => {
    for (let i = 0; i < v.length; i++) {
        const c = v.charCodeAt(i);
        const shown = o.secret ? 'a character' : JSON.stringify(v[i]);
        let why;
        if (isControl(c))
            why = `a control character (such as a line break) at position ${i + 1}`;
        else if (c > 0xff)
            why = `${shown} at position ${i + 1}, which is not Latin-1`;
        else if (o.cookie && c === 0x3b)
            why = `";" at position ${i + 1}, which would end the cookie`;
        if (why !== undefined) {
            ctx.addIssue({
                code: 'custom',
                message: `${name} holds ${why}; it cannot be sent in an HTTP header. Check the value (or the secret behind it)`,
            });
            return;
        }
    }
});
/** A URL for a message, with whatever stands between `//` and `@` replaced. */
const withoutCredentials = (text) => text.replace(/^([^/?#]*\/\/)[^/?#]*@/, '$1***@');
function isHttpUrl(text) {
    try {
        const u = new URL(text);
        return u.protocol === 'http:' || u.protocol === 'https:';
    }
    catch {
        return false;
    }
}
const hasCredentials = (text) => {
    try {
        const u = new URL(text);
        return u.username !== '' || u.password !== '';
    }
    catch {
        return false;
    }
};
/** An absolute http(s) URL that bk-ci will store and show: no user name or password in it. */
const publicHttpUrl = (name) => string().superRefine((v, ctx) => {
    if (!isHttpUrl(v))
        ctx.addIssue({ code: 'custom', message: `${name} "${withoutCredentials(v)}" must be an absolute http(s) URL` });
    else if (hasCredentials(v))
        ctx.addIssue({
            code: 'custom',
            message: `${name} must not hold a user name or password: bk-ci stores the URL and shows it to every project member (here without them: ${withoutCredentials(v)}). Use secret-token to authenticate the calls`,
        });
});
function distance(a, b) {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        let prev = row[0] ?? 0;
        row[0] = i;
        for (let j = 1; j <= b.length; j++) {
            const here = row[j] ?? 0;
            row[j] = Math.min(here + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
            prev = here;
        }
    }
    return row[b.length] ?? 0;
}
/** The closest known name, if it is close enough to be what was meant. */
function suggest(value, known) {
    const upper = value.toUpperCase().replace(/[\s-]/g, '_');
    let best;
    let bestDistance = Infinity;
    for (const k of known) {
        const d = distance(upper, k);
        if (d < bestDistance)
            [best, bestDistance] = [k, d];
    }
    return bestDistance <= Math.max(2, Math.floor(upper.length / 3)) ? best : undefined;
}
/** Names separated by commas and/or new lines, trimmed, empty ones and repeats dropped. */
function splitList(text) {
    return [
        ...new Set(text
            .split(/[,\n]/)
            .map((e) => e.trim())
            .filter((e) => e !== '')),
    ];
}
/** One of a few words, with a suggestion for a near miss. */
const oneOf = (name, values) => string().transform((v, ctx) => {
    const found = values.find((r) => r === v);
    if (found !== undefined)
        return found;
    const hint = suggest(v, values);
    ctx.addIssue({ code: 'custom', message: `${name} "${v}" is not one of ${values.join(', ')}${hint ? ` (did you mean ${hint}?)` : ''}` });
    return NEVER;
});
/** JSON or YAML text. YAML's parser loads only when needed; whole numbers beyond 2^53 stay exact. */
async function parseJsonOrYaml(text) {
    const { bigintsToExact, parseExact } = await import('./json.js');
    const t = text.trim();
    if (t.startsWith('{') || t.startsWith('[')) {
        try {
            return parseExact(t);
        }
        catch {
            // a YAML flow mapping also starts with '{'
        }
    }
    const { parse } = await import('./yaml.js').then(function (n) { return n.i; });
    return bigintsToExact(parse(t, { schema: 'core', intAsBigInt: true }));
}
/** A JSON object or YAML mapping, as a plain record. */
const mapping = (name) => string().transform(async (text, ctx) => {
    let value;
    try {
        value = await parseJsonOrYaml(text);
    }
    catch (e) {
        ctx.addIssue({
            code: 'custom',
            message: `${name} is neither a JSON object nor a YAML mapping: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
        });
        return NEVER;
    }
    if (!isRecord(value)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a JSON object or a YAML mapping` });
        return NEVER;
    }
    return value;
});
const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !JSON.isRawJSON(v);

/** A failure that a later poll may not meet: an overloaded or restarting gateway, a dropped connection. */
function isTransient(e) {
    if (e instanceof HttpError)
        return e.status >= 500 || e.status === 429 || e.status === 423;
    return e instanceof NetworkError || e instanceof RequestTimeoutError;
}
const reasonOf = (e) => e instanceof HttpError
    ? `bk-ci answered HTTP ${e.status}`
    : e instanceof RequestTimeoutError
        ? 'bk-ci did not answer in time'
        : 'the connection failed';
/**
 * The one poll loop: the first poll at once, then one every interval counted from the start of
 * the last (a slow answer does not push the schedule back), the last one at the deadline, never
 * a sleep past it. A passing failure costs one poll, not the step: the wait goes on, the
 * heartbeat says what is happening, and only the deadline ends it. Cancellation throws
 * CancelledError; any other failure is thrown as it is.
 */
async function poll(watch, o, progress) {
    const { clock, log } = o;
    const deadline = o.start + o.timeoutMs;
    const heartbeatMs = o.heartbeatMs ?? 30_000;
    const elapsed = () => formatDuration(clock.now() - o.start);
    let lastLine = clock.now();
    for (;;) {
        const pollAt = clock.now();
        let value;
        try {
            value = await watch.read();
        }
        catch (e) {
            if (e instanceof DeadlineError)
                return 'timeout';
            if (!o.wait || !isTransient(e))
                throw e;
            const error = e instanceof Error ? e.message : String(e);
            if (progress.trouble === undefined)
                log.info(`${elapsed()}: a poll failed (${error}); waiting on`);
            progress.trouble = { since: progress.trouble?.since ?? pollAt, reason: reasonOf(e), error };
        }
        if (value !== undefined) {
            progress.polls++;
            progress.last = value;
            if (progress.trouble !== undefined) {
                log.info(`${elapsed()}: bk-ci answers again, after ${formatDuration(pollAt - progress.trouble.since)} of failed polls`);
                delete progress.trouble;
            }
            const status = watch.status(value);
            log.debug(`poll ${progress.polls}: ${watch.describe(value)}`);
            if (status !== progress.status) {
                progress.changes.push({ at: clock.now(), status });
                progress.status = status;
                log.info(`${elapsed()}: ${watch.describe(value)}`);
                lastLine = clock.now();
            }
            const verdict = watch.verdict(value);
            if (verdict !== 'waiting')
                return verdict;
            if (!o.wait)
                return 'read-once';
        }
        if (pollAt >= deadline)
            return 'timeout';
        if (clock.now() - lastLine >= heartbeatMs) {
            const t = progress.trouble;
            const failing = t === undefined ? '' : `; ${t.reason} for ${formatDuration(clock.now() - t.since)}`;
            log.info(`still ${waitingOn(watch, progress)} after ${elapsed()}, ${countOf(progress.polls, 'poll')}${failing}`);
            lastLine = clock.now();
        }
        const next = Math.min(pollAt + o.intervalMs, deadline);
        await clock.sleep(Math.max(0, next - clock.now()), o.signal).catch(() => {
            throw new CancelledError();
        });
    }
}
/** "RUNNING", or what the operation says it waits on ("waiting for review of stage 'Release'"). */
function waitingOn(watch, progress) {
    const last = progress.last;
    return last === undefined ? 'waiting' : (watch.waitingOn?.(last) ?? watch.status(last));
}
/** What the trouble at the deadline was, for the timeout message; empty when there was none. */
function troubleNote(progress, now) {
    const t = progress.trouble;
    return t === undefined ? '' : ` The polls of the last ${formatDuration(now - t.since)} failed; the last one: ${t.error}.`;
}
/** The summary's table of status changes, when there were any. */
function changesTable(progress, start) {
    return progress.changes.length === 0
        ? []
        : [
            {
                kind: 'table',
                title: 'Status changes',
                headers: ['After', 'Time', 'Status'],
                rows: progress.changes.map((c) => [formatDuration(c.at - start), utcTime(c.at), c.status]),
            },
        ];
}

// What start-build and build-status share: the inputs that name a build, the wait on its
// status (the shared poll loop), stopping it when the job is cancelled, and how it is shown.
const BUILD_OUTPUTS = ['build-id', 'build-num', 'build-status', 'build-url', 'elapsed', 'polls'];
const pipelineIdInput = string().regex(/^p-[\w-]+$/, 'pipeline-id must be a pipeline id, p-…');
const buildIdInput = string().regex(/^b-[\w-]+$/, 'build-id must be a build id, b-…');
const waitInput = bool('wait').default(true);
const consoleUrlInput = string()
    .refine(isHttpUrl, 'console-url must be an absolute http(s) URL, the root of the bk-ci web console')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional();
/** The build's page in bk-ci's console; empty when the pipeline is not known. */
function buildUrl(consoleUrl, projectId, pipelineId, id) {
    if (pipelineId === undefined)
        return '';
    return `${consoleUrl}/console/pipeline/${[projectId, pipelineId, 'detail', id].map(encodeURIComponent).join('/')}`;
}
/** The build's status as `data`: its variables and parameter values left out, since they may hold secrets. */
function shareable(s) {
    const { variables: _variables, buildParameters, ...rest } = s;
    const params = Array.isArray(buildParameters) ? buildParameters : [];
    return {
        ...rest,
        buildParameters: params.map((p) => typeof p === 'object' && p !== null && 'key' in p ? { key: p.key, ...('valueType' in p ? { valueType: p.valueType } : {}) } : {}),
    };
}
/**
 * Reads the build, and with `wait` polls it until it ends. SUCCEED (or STAGE_SUCCESS with an
 * end time) ends well; a failure status or CANCELED fails the step with bk-ci's first error;
 * everything else waits, a review pause and the queue said in words, an unknown status warned
 * about once. The build's id and number are in every outcome, success or not.
 */
async function watchBuild(b, ctx) {
    const { api, clock, log } = ctx;
    const progress = { polls: 0, last: undefined, status: undefined, changes: [] };
    let status;
    let stopped;
    const elapsed = () => clock.now() - ctx.start;
    const url = buildUrl(b.consoleUrl, b.projectId, b.pipelineId, b.id);
    const name = () => `build ${(progress.last?.buildNum ?? b.num) ? `#${progress.last?.buildNum ?? b.num} ` : ''}(${b.id})`;
    const outcome = (headline) => ({
        ...describeBuild(headline, b, url, progress, elapsed(), stopped, ctx.start),
        status,
    });
    const warned = new Set();
    if (b.wait)
        log.info(`waiting for ${name()}: timeout ${formatDuration(ctx.settings.timeoutMs)}, a poll every ${formatDuration(ctx.settings.pollIntervalMs)}${url ? `; ${url}` : ''}`);
    let end;
    try {
        end = await poll({
            read: async () => {
                const reply = await api
                    .call({
                    endpoint: BUILD_STATUS,
                    params: { projectId: b.projectId },
                    query: { buildId: b.id, pipelineId: b.pipelineId },
                    data: buildStatus$1,
                })
                    .catch((e) => {
                    status = statusOf(e) ?? status;
                    throw unknownBuild(e, b) ?? e;
                });
                status = reply.status;
                if (reply.data === undefined)
                    throw new ActionError(`bk-ci answered without the status of ${name()}`, { status: reply.status });
                return reply.data;
            },
            status: (s) => s.status,
            describe: (s) => (waitingOn$1(s) === s.status ? s.status : `${s.status}: ${waitingOn$1(s)}`),
            waitingOn: waitingOn$1,
            verdict: (s) => {
                const e = buildEnd(s);
                if (e === 'waiting' && !isKnownStatus(s.status) && !warned.has(s.status)) {
                    warned.add(s.status);
                    log.warning(`${name()} has status "${s.status}", which this action does not know; waiting on`);
                }
                return e === 'succeeded' ? 'done' : e;
            },
        }, {
            start: ctx.start,
            timeoutMs: ctx.settings.timeoutMs,
            intervalMs: ctx.settings.pollIntervalMs,
            wait: b.wait,
            clock,
            log,
            signal: ctx.signal,
        }, progress);
    }
    catch (e) {
        if (!(e instanceof CancelledError)) {
            status = statusOf(e) ?? status;
            const plain = e instanceof ActionError && /^no build /.test(e.message);
            throw new OperationError(plain ? e.message : `reading ${name()} failed: ${errorMessage(e)}`, outcome(`${name()}: error`), {
                cause: e,
            });
        }
        if (b.stopOnCancel)
            stopped = await stopBuild(api, b, log.info);
        throw new OperationError(`cancelled after ${formatDuration(elapsed())}, last status ${progress.status ?? 'unknown'}; ${stopped ?? 'the build goes on in bk-ci'}`, outcome(`${name()}: cancelled`));
    }
    const last = progress.last;
    if (end === 'failed' && last !== undefined) {
        const why = firstError(last);
        throw new OperationError(`${name()} of pipeline ${b.pipelineId ?? '?'} ended ${last.status}${why === undefined ? '' : `: ${why}`}`, outcome(`${name()}: ${last.status}`));
    }
    if (end === 'timeout')
        throw new OperationError(`${name()} ${last === undefined ? 'could not be read' : `is still ${waitingOn$1(last)}`} after ${formatDuration(elapsed())} (${countOf(progress.polls, 'poll')}, timeout ${formatDuration(ctx.settings.timeoutMs)}). The step stopped waiting; the build goes on in bk-ci.${troubleNote(progress, clock.now())}`, outcome(`${name()}: timed out`));
    return outcome(`${name()}: ${last === undefined ? 'unknown' : waitingOn$1(last)} after ${formatDuration(elapsed())}, ${countOf(progress.polls, 'poll')}`);
}
/** v4 answers an unknown build id with 400 `参数校验失败:{0} Invalid buildId…`: said plainly. */
function unknownBuild(e, b) {
    if (!(e instanceof HttpError) || e.status !== 400 || !/Invalid buildId/i.test(e.serverMessage))
        return undefined;
    return new ActionError(`no build ${b.id} in project ${b.projectId}${b.pipelineId ? ` (pipeline ${b.pipelineId})` : ''}: check build-id and project-id`, {
        status: 400,
        cause: e,
    });
}
/** How long the runner's grace period leaves for stopping the build after a cancel. */
const STOP_TIMEOUT_MS = 1200;
/** POSTs build_stop once, even though the job was cancelled; says what came of it. */
async function stopBuild(api, b, info) {
    let said;
    try {
        await api.call({
            endpoint: BUILD_STOP,
            params: { projectId: b.projectId },
            query: { buildId: b.id, pipelineId: b.pipelineId },
            data: unknown(),
            detached: { timeoutMs: STOP_TIMEOUT_MS },
        });
        said = `the build ${b.id} was stopped in bk-ci (stop-on-cancel)`;
    }
    catch (e) {
        said =
            e instanceof ServerSaidError && e.serverStatus === 2101182
                ? `the build ${b.id} had already ended`
                : `stopping the build ${b.id} failed (${errorMessage(e)}); it may still run in bk-ci`;
    }
    info(said);
    return said;
}
function describeBuild(headline, b, url, progress, elapsedMs, stopped, start) {
    const last = progress.last;
    const num = last?.buildNum ?? b.num;
    const outputs = {
        'build-id': b.id,
        'build-num': num === undefined || num === null ? '' : String(num),
        'build-status': last?.status ?? '',
        'build-url': url,
        elapsed: seconds(elapsedMs),
        polls: String(progress.polls),
    };
    const rows = [
        ['Build', `${num ? `#${num} ` : ''}${b.id}`],
        ['Pipeline', `${b.projectId} / ${b.pipelineId ?? 'not given'}`],
        ['Status', last === undefined ? 'unknown' : waitingOn$1(last) === last.status ? last.status : `${last.status} (${waitingOn$1(last)})`],
        ['Elapsed', formatDuration(elapsedMs)],
        ['Polls', String(progress.polls)],
    ];
    if (url)
        rows.push(['Link', url]);
    if (stopped !== undefined)
        rows.push(['Stopped', stopped]);
    const stages = last?.stageStatus ?? [];
    const errors = last?.errorInfoList ?? [];
    const table = (title, headers, tableRows) => tableRows.length === 0 ? [] : [{ kind: 'table', title, headers, rows: tableRows }];
    const blocks = [
        { kind: 'facts', rows },
        ...table('Stages', ['Stage', 'Status', 'Time'], stages.map((st) => [st.name ?? st.stageId ?? '', st.status ?? 'not started', st.elapsed ? formatDuration(st.elapsed) : ''])),
        ...changesTable(progress, start),
        ...table('Errors', ['Task', 'Code', 'Message'], errors.map((e) => [e.taskName ?? '', e.errorCode === undefined || e.errorCode === null ? '' : String(e.errorCode), e.errorMsg ?? ''])),
    ];
    return { headline, ...(last === undefined ? {} : { data: shareable(last) }), outputs, blocks };
}

function defineOperation(spec) {
    return {
        inputNames: Object.keys(spec.inputs.shape),
        secrets: spec.secrets ?? [],
        endpoints: spec.endpoints,
        outputs: spec.outputs,
        credentials: spec.credentials,
        async prepare(raw, name) {
            const parsed = await spec.inputs.safeParseAsync(raw);
            if (!parsed.success)
                return {
                    problems: parsed.error.issues.map((i) => i.code === 'invalid_type' && i.input === undefined && i.path.length === 1
                        ? `${String(i.path[0])} is required for operation ${name}`
                        : i.message),
                };
            const task = parsed.data;
            return {
                job: {
                    task,
                    describe: (settings) => spec.describe(task, settings),
                    check: (settings) => spec.check?.(task, settings) ?? [],
                    waits: spec.waits(task),
                    run: (ctx) => spec.run(task, ctx),
                },
            };
        },
    };
}

/** Reads a build this step did not start, once or until it ends. It never stops the build. */
var buildStatus = defineOperation({
    inputs: object({
        'project-id': segment('project-id'),
        'build-id': buildIdInput,
        'pipeline-id': pipelineIdInput.optional(),
        wait: waitInput,
        'console-url': consoleUrlInput,
    }),
    endpoints: [BUILD_STATUS],
    outputs: BUILD_OUTPUTS,
    credentials: 'any',
    describe: (t) => [
        ['project-id', t['project-id']],
        ['build-id', t['build-id']],
        ['pipeline-id', t['pipeline-id'] ?? ''],
        ['wait', String(t.wait)],
    ],
    waits: (t) => t.wait,
    run: (t, ctx) => watchBuild({
        projectId: t['project-id'],
        pipelineId: t['pipeline-id'],
        id: t['build-id'],
        wait: t.wait,
        consoleUrl: t['console-url'] ?? ctx.settings.baseUrl,
        stopOnCancel: false,
    }, ctx),
});

/** bk-ci's CallBackEvent (common-pipeline CallBackData.kt), all versions up to 2026. */
const CALLBACK_EVENTS = [
    'DELETE_PIPELINE',
    'CREATE_PIPELINE',
    'UPDATE_PIPELINE',
    'STREAM_ENABLED',
    'RESTORE_PIPELINE',
    'BUILD_START',
    'BUILD_END',
    'BUILD_STAGE_START',
    'BUILD_STAGE_END',
    'BUILD_JOB_START',
    'BUILD_JOB_END',
    'BUILD_TASK_START',
    'BUILD_TASK_END',
    'BUILD_TASK_PAUSE',
    'PROJECT_CREATE',
    'PROJECT_UPDATE',
    'PROJECT_ENABLE',
    'PROJECT_DISABLE',
];
const REGIONS = ['DEVNET', 'OSS', 'IDC'];

const CALLBACKS_BATCH = {
    method: 'POST',
    path: { 'bk-ci': 'v3/projects/{projectId}/callbacks/batch', 'bk-apigateway': 'v4/projects/{projectId}/callbacks/batch' },
};
const CALLBACKS_LIST = {
    method: 'GET',
    path: { 'bk-ci': 'v3/projects/{projectId}/callbacks', 'bk-apigateway': 'v4/projects/{projectId}/callbacks/callback_list' },
};
/** v3 takes the id in the path, v4 in the query (`callback?id=`); the id goes in both, each ignores the other. */
const CALLBACK_DELETE = {
    method: 'DELETE',
    path: { 'bk-ci': 'v3/projects/{projectId}/callbacks/{id}', 'bk-apigateway': 'v4/projects/{projectId}/callbacks/callback' },
};
const OUTPUTS$1 = ['success-events', 'failure-events', 'reenabled-events', 'removed-events'];
const callbackResult = object({
    successEvents: array(string()).nullish(),
    failureEvents: record(string(), string()).nullish(),
});
/** One page of ProjectPipelineCallBack rows: one (url, event) each; secretToken is never shown. */
const callbackPage = object({
    count: number().int().nullish(),
    records: array(object({ id: union([number().int(), string()]), callBackUrl: string(), events: string(), enable: boolean().nullish() }))
        .nullish(),
});
const PAGE_SIZE = 100;
const events = string().transform((v, ctx) => {
    const names = splitList(v);
    if (names.length === 0)
        ctx.addIssue({ code: 'custom', message: 'events names no event' });
    for (const e of names) {
        if (CALLBACK_EVENTS.includes(e))
            continue;
        const hint = suggest(e, CALLBACK_EVENTS);
        ctx.addIssue({
            code: 'custom',
            message: `event "${e}" is not a bk-ci callback event${hint ? ` (did you mean ${hint}?)` : ''}; known events: ${CALLBACK_EVENTS.join(', ')}`,
        });
    }
    return names;
});
/**
 * A refusal of a right, said as the right: listing needs a project member (bk-ci 2101133),
 * deleting and registering a manager (2101104); the spec says 403 for either.
 */
function rightMissing(e, what, right, projectId) {
    if (!(e instanceof ServerSaidError) || !(e.serverStatus === 2101133 || e.serverStatus === 2101104 || e.status === 403))
        return e;
    const needs = right === 'member'
        ? `project membership, and the user is not a member of project ${projectId}`
        : `a manager of project ${projectId}, and the user is not one`;
    return new ActionError(`${what} needs ${needs} (bk-ci ${e.serverStatus ?? e.status}: ${e.serverMessage})`, {
        status: e.status,
        cause: e,
    });
}
/** Every callback of the project, all pages. */
async function listAll(api, projectId) {
    const rows = [];
    for (let page = 1;; page++) {
        const reply = await api
            .call({
            endpoint: CALLBACKS_LIST,
            params: { projectId },
            query: { page: String(page), pageSize: String(PAGE_SIZE) },
            data: callbackPage,
        })
            .catch((e) => {
            throw rightMissing(e, 'listing the callbacks', 'member', projectId);
        });
        const records = reply.data?.records ?? [];
        rows.push(...records.map((r) => ({ id: String(r.id), url: r.callBackUrl, event: r.events, enable: r.enable !== false })));
        if (records.length < PAGE_SIZE || rows.length >= (reply.data?.count ?? Number.POSITIVE_INFINITY))
            return rows;
    }
}
/**
 * Registers the URL for the events, and makes sure each one is enabled. bk-ci's circuit breaker
 * disables a callback whose deliveries keep failing, and registering the same URL and event again
 * only rotates the secret: a disabled one is deleted first, then re-created by the batch. With
 * replace-events, this URL's callbacks for other events are deleted too; other URLs never.
 * Nothing is deleted unless the list succeeded; a failure half way says what was done.
 */
var createCallbacks = defineOperation({
    inputs: object({
        'project-id': segment('project-id'),
        'callback-url': publicHttpUrl('callback-url'),
        region: oneOf('region', REGIONS),
        events,
        'secret-token': string().optional(),
        'replace-events': bool('replace-events').default(false),
    }),
    secrets: ['secret-token'],
    endpoints: [CALLBACKS_LIST, CALLBACK_DELETE, CALLBACKS_BATCH],
    outputs: OUTPUTS$1,
    credentials: 'any',
    describe: (t) => [
        ['project-id', t['project-id']],
        ['callback-url', t['callback-url']],
        ['region', t.region],
        ['events', t.events.join(', ')],
        ['replace-events', String(t['replace-events'])],
    ],
    waits: () => false,
    async run(t, { api, log }) {
        const projectId = t['project-id'];
        const url = t['callback-url'];
        const rows = (await listAll(api, projectId)).filter((r) => r.url === url);
        const disabled = rows.filter((r) => !r.enable && t.events.includes(r.event));
        const stale = t['replace-events'] ? rows.filter((r) => !t.events.includes(r.event)) : [];
        const reenabled = [];
        const removed = [];
        let status;
        const outcome = (headline, result) => describe(headline, t, { reenabled, removed, result, disabled: disabled.map((r) => r.event) }, status);
        for (const [row, done] of [...disabled.map((r) => [r, reenabled]), ...stale.map((r) => [r, removed])]) {
            try {
                const reply = await api.call({
                    endpoint: CALLBACK_DELETE,
                    params: { projectId, id: row.id },
                    query: { id: row.id },
                    data: unknown(),
                });
                status = reply.status;
            }
            catch (e) {
                // Another deploy deleted it first: what matters is that it is gone.
                if (!(e instanceof ServerSaidError && e.serverStatus === 2101136)) {
                    const left = [...disabled, ...stale]
                        .filter((r) => !reenabled.includes(r.event) && !removed.includes(r.event))
                        .map((r) => r.event);
                    throw new OperationError(`${errorMessage(rightMissing(e, 'deleting a callback', 'manager', projectId))}. Deleted so far: ${[...reenabled, ...removed].join(', ') || 'none'}; not deleted: ${left.join(', ')}; nothing was registered. Running the step again finishes the job.`, {
                        ...outcome('callbacks half updated'),
                        ...(reenabled.length + removed.length > 0
                            ? { done: `deleted the callbacks of ${url} for ${[...reenabled, ...removed].join(', ')}` }
                            : {}),
                    }, { cause: e });
                }
            }
            done.push(row.event);
        }
        if (reenabled.length > 0)
            log.info(`re-enabling ${reenabled.join(', ')}: bk-ci had disabled them after failed deliveries, and registering again does not enable them`);
        if (removed.length > 0)
            log.info(`removed ${removed.join(', ')}: no longer in events (replace-events)`);
        const reply = await api
            .call({
            endpoint: CALLBACKS_BATCH,
            params: { projectId },
            query: { url, region: t.region, event: t.events.join(','), secretToken: t['secret-token'] },
            data: callbackResult,
        })
            .catch((e) => {
            const error = rightMissing(e, 'registering callbacks', 'manager', projectId);
            if (reenabled.length === 0)
                throw error;
            throw new OperationError(`${errorMessage(error)}. The disabled callbacks for ${reenabled.join(', ')} were deleted to be re-created and are not registered now: run the step again.`, { ...outcome('callbacks deleted, not re-created'), done: `deleted the disabled callbacks of ${url} for ${reenabled.join(', ')}` }, { cause: e });
        });
        status = reply.status;
        const failed = Object.entries(reply.data?.failureEvents ?? {});
        const result = outcome(`registered ${reply.data?.successEvents?.length ?? 0} of ${t.events.length} callbacks for ${projectId}`, reply.data);
        if (reply.data === undefined)
            throw new OperationError('bk-ci answered the callback batch without a result', result);
        if (failed.length > 0)
            throw new OperationError(`${failed.length} of ${t.events.length} callbacks failed: ${failed.map(([e, why]) => `${e} (${why})`).join('; ')}`, result);
        return result;
    },
});
function describe(headline, t, done, status) {
    const success = done.result?.successEvents ?? [];
    const failure = done.result?.failureEvents ?? {};
    const state = (e) => done.reenabled.includes(e) ? 're-enabled' : done.disabled.includes(e) ? 'disabled, not yet re-created' : 'registered';
    const rows = [
        ...success.map((e) => [
            e,
            state(e),
            done.reenabled.includes(e) ? 'bk-ci had disabled it after failed deliveries; deleted and created again' : '',
        ]),
        ...Object.entries(failure).map(([e, why]) => [e, 'failed', why]),
        ...done.removed.map((e) => [e, 'removed', 'not in events (replace-events)']),
    ];
    const blocks = [
        {
            kind: 'facts',
            rows: [
                ['Project', t['project-id']],
                ['Callback URL', t['callback-url']],
                ['Region', t.region],
            ],
        },
        { kind: 'table', title: 'Events', headers: ['Event', 'Result', 'Reason'], rows },
    ];
    return {
        headline,
        ...(done.result === undefined ? {} : { data: { successEvents: success, failureEvents: failure } }),
        outputs: {
            'success-events': JSON.stringify(success),
            'failure-events': JSON.stringify(failure),
            'reenabled-events': JSON.stringify(done.reenabled),
            'removed-events': JSON.stringify(done.removed),
        },
        blocks,
        status,
    };
}

const rawJson = custom((v) => JSON.isRawJSON(v));
/**
 * bk-ci ids are Long in create/update bodies but strings in ProjectVO; both are accepted and
 * sent as JSON numbers, exact to the digit beyond 2^53.
 */
const id = union([
    number().int().refine(Number.isSafeInteger, 'a whole number too large to be exact here; write it as a string of digits'),
    rawJson,
    string().transform((v, ctx) => {
        const exact = exactInteger(v);
        if (exact === undefined)
            ctx.addIssue({ code: 'custom', message: `"${v}" is not a whole number` });
        return exact ?? NEVER;
    }),
]);
/** The fields of ProjectCreateInfo / ProjectUpdateInfo; others are passed through untouched. */
const projectFields = looseObject({
    englishName: string().optional(),
    projectName: string().optional(),
    description: string().optional(),
    projectType: number().int().optional(),
    bgId: id.optional(),
    bgName: string().optional(),
    businessLineId: id.optional(),
    businessLineName: string().optional(),
    deptId: id.optional(),
    deptName: string().optional(),
    centerId: id.optional(),
    centerName: string().optional(),
    secrecy: boolean().optional(),
    hidden: boolean().optional(),
    projectScope: number().int().optional(),
    kind: number().int().optional(),
    properties: record(string(), unknown()).optional(),
    subjectScopes: array(unknown()).optional(),
    logoAddress: string().optional(),
    authSecrecy: number().int().optional(),
    enabled: boolean().optional(),
    productId: number().int().optional(),
    productName: string().optional(),
    kpiCode: string().optional(),
    kpiName: string().optional(),
    ccAppId: id.optional(),
    ccAppName: string().optional(),
});
/** Fields of ProjectUpdateInfo. bk-ci's PUT resets every one of these it is not given. */
const UPDATE_KEYS = [
    'projectName',
    'description',
    'projectType',
    'bgId',
    'bgName',
    'businessLineId',
    'businessLineName',
    'centerId',
    'centerName',
    'deptId',
    'deptName',
    'ccAppId',
    'ccAppName',
    'kind',
    'secrecy',
    'hidden',
    'properties',
    'subjectScopes',
    'logoAddress',
    'authSecrecy',
    'productId',
    'productName',
    'kpiCode',
    'kpiName',
];
const NUMERIC_KEYS = new Set([
    'bgId',
    'businessLineId',
    'centerId',
    'deptId',
    'ccAppId',
    'projectType',
    'kind',
    'authSecrecy',
    'productId',
]);
const WHOLE = /^-?(0|[1-9]\d*)$/;
/** A value read from ProjectVO as it goes back into a PUT, or undefined when it cannot go back unchanged. */
function carried(key, value) {
    if (!NUMERIC_KEYS.has(key))
        return value;
    if ((typeof value === 'number' && Number.isSafeInteger(value)) || JSON.isRawJSON(value))
        return value;
    return typeof value === 'string' && WHOLE.test(value) ? exactInteger(value) : undefined;
}
/**
 * The PUT body that changes only what `given` names: the project as it is now (ProjectVO's
 * string ids back as exact numbers), the given fields over it, and `englishName` equal to the
 * path id, which bk-ci needs for its permission and name checks. bk-ci's PUT resets every field
 * it is not given, so a value read that cannot be sent back unchanged is a problem, named, never
 * dropped: the caller stops before the PUT.
 */
function mergeForUpdate(current, given, projectId) {
    const body = {};
    const problems = [];
    for (const key of UPDATE_KEYS) {
        if (given[key] !== undefined)
            continue;
        const value = key === 'logoAddress' ? current.logoAddr : current[key];
        // ProjectVO shows a missing logo as "": sending "" back would store an empty address.
        if (value === undefined || value === null || (key === 'logoAddress' && value === ''))
            continue;
        const out = carried(key, value);
        if (out === undefined)
            problems.push(`${key} is ${JSON.stringify(value)}, not a whole number that can be sent back as it is`);
        else
            body[key] = out;
    }
    for (const [key, value] of Object.entries(given))
        if (value !== undefined)
            body[key] = value;
    body.englishName = projectId;
    return { body, problems };
}
// The gateway renames the project calls (@BkApigwApi apigwPathTail): same ProjectVO, same wrapper.
const PROJECT_READ = {
    method: 'GET',
    path: { 'bk-ci': 'v3/projects/{projectId}', 'bk-apigateway': 'v4/projects/{projectId}' },
};
const PROJECT_UPDATE = {
    method: 'PUT',
    path: { 'bk-ci': 'v3/projects/{projectId}', 'bk-apigateway': 'v4/projects/{projectId}' },
};
const PROJECT_LIST = { method: 'GET', path: { 'bk-ci': 'v3/projects', 'bk-apigateway': 'v4/projects/project_list' } };
const PROJECT_CREATE = { method: 'POST', path: { 'bk-ci': 'v3/projects', 'bk-apigateway': 'v4/projects/project_create' } };
/** The fields of ProjectVO this action reads. */
const projectFieldsRead = {
    englishName: string(),
    projectName: string(),
    description: string().nullish(),
    creator: string().nullish(),
    enabled: boolean().nullish(),
    approvalStatus: number().nullish(),
};
/** ProjectVO: the fields this action reads are checked, the rest passed through to `data`. */
const projectVO = looseObject(projectFieldsRead);
/**
 * Each project checked by projectVO but kept as it came: zod returns a copy of every object it
 * parses, which for a list of 20,000 projects doubled the peak memory (BENCHMARKS.md).
 * Sound because projectVO transforms nothing; the check strips what it does not read, so the
 * throw-away copy it makes of each project is six fields, not fifty.
 */
const projectCheck = object(projectFieldsRead);
const projectInPlace = custom((v) => projectCheck.safeParse(v).success, {
    error: 'not a project: englishName and projectName must be strings',
});
/**
 * The project, or undefined when there is none: bk-ci answers 200 without data, the spec 404.
 * Read exactly (ids beyond 2^53 to the digit), since an update sends it back.
 */
async function findProject(api, projectId) {
    try {
        const reply = await api.call({ endpoint: PROJECT_READ, params: { projectId }, data: projectVO, exact: true });
        return { project: reply.data, status: reply.status };
    }
    catch (e) {
        if (e instanceof HttpError && e.status === 404)
            return { project: undefined, status: 404 };
        throw e;
    }
}

// What the project operations share: the `project` input and the way a project is shown.
/** `project`: project fields as a JSON object or a YAML mapping; each problem names its field. */
const projectInput = mapping('project').transform((value, ctx) => {
    const fields = projectFields.safeParse(value);
    if (fields.success)
        return fields.data;
    for (const issue of fields.error.issues)
        ctx.addIssue({ code: 'custom', message: `project.${issue.path.join('.')}: ${issue.message}` });
    return NEVER;
});
function projectFacts(p) {
    return {
        kind: 'facts',
        rows: [
            ['English name', p.englishName],
            ['Name', p.projectName],
            ['Description', p.description ?? ''],
            ['Creator', p.creator ?? ''],
            ['Enabled', p.enabled === false ? 'no' : 'yes'],
        ],
    };
}
const projectOutcome = (headline, p, status, extra = []) => ({
    headline,
    data: p,
    outputs: {},
    blocks: [projectFacts(p), ...extra],
    status,
});
const notFound = (projectId, status) => new OperationError(`project "${projectId}" was not found (or the user may not see it); check project-id, the English name of the project`, {
    headline: `project ${projectId} not found`,
    outputs: {},
    blocks: [],
    status,
});
const wasDone = (projectId, what) => `project ${projectId} was ${what}`;
/**
 * The project after a write that went through. Whatever goes wrong from here (the read, a
 * cancel, the deadline) cannot undo the write: the failure's outcome says what was done, and
 * run() puts it first ("project demo was created, but reading it back failed: …").
 */
async function readBack(api, projectId, what, writeStatus, blocks) {
    const known = (status) => ({
        headline: `${what} project ${projectId}, not read back`,
        done: wasDone(projectId, what),
        outputs: {},
        blocks,
        status,
    });
    let read;
    try {
        read = await findProject(api, projectId);
    }
    catch (e) {
        throw new OperationError(`reading it back failed: ${errorMessage(e)}`, known(statusOf(e) ?? writeStatus), { cause: e });
    }
    if (read.project === undefined)
        throw new OperationError('reading it back found nothing; it may be waiting for approval', known(read.status));
    return { project: read.project, status: read.status };
}

const show = (v) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
/**
 * bk-ci's PUT resets every organisation field it is not given and needs `englishName` equal to
 * the path id; so: read, merge the given fields over what is there, PUT it all, read back.
 * create-project's `if-exists: update` comes here too, with the project it already read.
 */
async function updateProject(api, projectId, given, current) {
    const before = current ?? (await findProject(api, projectId)).project;
    if (before === undefined)
        throw notFound(projectId, 200);
    const { body, problems } = mergeForUpdate(before, given, projectId);
    if (problems.length > 0) {
        const one = problems.length === 1;
        throw new ProjectWriteError(`project "${projectId}" was not updated: bk-ci's PUT resets every field it is not given, and ${one ? 'this value' : 'these values'} of the project cannot be sent back unchanged: ${problems.join('; ')}. Give ${one ? 'that field' : 'those fields'} in project to set ${one ? 'it' : 'them'} explicitly.`);
    }
    const put = await api.call({ endpoint: PROJECT_UPDATE, params: { projectId }, body, data: boolean() });
    if (put.data === false)
        throw new ProjectWriteError(`bk-ci answered false to updating project "${projectId}"`, { status: put.status });
    const keys = Object.keys(given)
        .filter((k) => k !== 'englishName')
        .map((k) => [k, k === 'logoAddress' ? 'logoAddr' : k]);
    const table = (after) => ({
        kind: 'table',
        title: 'Given fields',
        headers: after === undefined ? ['Field', 'Before'] : ['Field', 'Before', 'After'],
        rows: keys.map(([k, read]) => (after === undefined ? [k, show(before[read])] : [k, show(before[read]), show(after[read])])),
    });
    const { project: after, status } = await readBack(api, projectId, 'updated', put.status, [table()]);
    const changed = keys.filter(([, read]) => show(before[read]) !== show(after[read])).length;
    return {
        ...projectOutcome(`updated project ${projectId} (${changed} of ${keys.length} given fields changed)`, after, status, [table(after)]),
        done: wasDone(projectId, 'updated'),
    };
}
/** Changes only the given fields of a project; every other field is sent back as it was read. */
var updateProject$1 = defineOperation({
    inputs: object({ 'project-id': segment('project-id'), project: projectInput }).superRefine((t, ctx) => {
        const name = t.project.englishName;
        if (name !== undefined && name !== t['project-id'])
            ctx.addIssue({
                code: 'custom',
                message: `project.englishName "${name}" differs from project-id "${t['project-id']}"; the English name of a project cannot be changed`,
            });
    }),
    endpoints: [PROJECT_READ, PROJECT_UPDATE],
    outputs: [],
    credentials: 'any',
    describe: (t) => [
        ['project-id', t['project-id']],
        ['fields', Object.keys(t.project).join(', ')],
    ],
    waits: () => false,
    run: (t, { api }) => updateProject(api, t['project-id'], t.project),
});

/** Fields bk-ci requires in a create body that a user may leave out: for a real create only. */
const CREATE_DEFAULTS = { description: '' };
/** Creates a project; an existing one fails the step, is left as it is, or gets the given fields. */
var createProject = defineOperation({
    inputs: object({
        project: projectInput,
        'project-id': segment('project-id').optional(),
        'if-exists': _enum(['fail', 'skip', 'update'], { error: (i) => `if-exists must be fail, skip or update, not "${String(i.input)}"` })
            .default('fail'),
    })
        .superRefine((t, ctx) => {
        const { englishName, projectName } = t.project;
        const problem = (message) => ctx.addIssue({ code: 'custom', message });
        if (englishName === undefined || projectName === undefined)
            problem('project must give englishName and projectName to create a project');
        const id = t['project-id'];
        if (id !== undefined && englishName !== undefined && id !== englishName)
            problem(`project-id "${id}" and project.englishName "${englishName}" differ; give one, or the same in both`);
        if (englishName !== undefined && !/^[a-z][a-zA-Z0-9-]{1,31}$/.test(englishName))
            problem(`project.englishName "${englishName}" must be 2-32 characters: a lower-case letter first, then letters, digits or "-"`);
    }),
    endpoints: [PROJECT_READ, PROJECT_CREATE, PROJECT_UPDATE],
    outputs: [],
    credentials: 'any',
    describe: (t) => [
        ['project', t.project.englishName ?? ''],
        ['if-exists', t['if-exists']],
    ],
    waits: () => false,
    async run(t, { api }) {
        // Only what the user gave: a create's defaults would overwrite what is there on an update.
        const given = t.project;
        const id = given.englishName ?? '';
        const existing = await findProject(api, id);
        if (existing.project !== undefined) {
            if (t['if-exists'] === 'skip')
                return projectOutcome(`project ${id} already exists; left as it is (if-exists: skip)`, existing.project, existing.status, [
                    { kind: 'note', text: 'The project already existed and was left unchanged (if-exists: skip).' },
                ]);
            if (t['if-exists'] === 'update')
                return updateProject(api, id, given, existing.project);
            throw new OperationError(`project "${id}" already exists; set if-exists to skip (keep it) or update (apply the given fields)`, projectOutcome(`project ${id} already exists`, existing.project, existing.status));
        }
        const post = await api.call({ endpoint: PROJECT_CREATE, body: { ...CREATE_DEFAULTS, ...given }, data: boolean() });
        if (post.data === false)
            throw new ProjectWriteError(`bk-ci answered false to creating project "${id}"`, { status: post.status });
        const note = { kind: 'note', text: 'The project was created.' };
        const { project, status } = await readBack(api, id, 'created', post.status, [note]);
        return { ...projectOutcome(`created project ${id}`, project, status, [note]), done: wasDone(id, 'created') };
    },
});

/** One project by its English name. */
var getProject = defineOperation({
    inputs: object({ 'project-id': segment('project-id') }),
    endpoints: [PROJECT_READ],
    outputs: [],
    credentials: 'any',
    describe: (t) => [['project-id', t['project-id']]],
    waits: () => false,
    async run(t, { api }) {
        const { project, status } = await findProject(api, t['project-id']);
        if (project === undefined)
            throw notFound(t['project-id'], status);
        return projectOutcome(`project ${project.englishName}: ${project.projectName}`, project, status);
    },
});

/** A new access token from the token endpoint. The token is an output, never part of `data`. */
var getToken = defineOperation({
    inputs: object({}),
    endpoints: [TOKEN_ENDPOINT],
    outputs: ['access-token', 'expiration-time'],
    credentials: 'issued',
    describe: () => [],
    waits: () => false,
    async run(_, { tokens, clock }) {
        if (!(tokens instanceof IssuedTokens))
            throw new ActionError('get-token needs bk-token, or a token endpoint that answers without one');
        const creds = await tokens.current();
        const info = tokens.info;
        const expirationTime = info?.expirationTime ?? 0;
        const text = info?.expirationText ?? String(expirationTime);
        const now = clock.now();
        return {
            headline: `got an access token for ${creds.userId}, valid until ${utcTime(expirationTime, text)}`,
            data: { userId: info?.userId ?? creds.userId, expirationTime: exactInteger(text) ?? expirationTime },
            outputs: { 'access-token': creds.token, 'expiration-time': text },
            user: creds.userId,
            blocks: [
                {
                    kind: 'facts',
                    rows: [
                        ['User', creds.userId],
                        [
                            'Expires',
                            expiresAt(expirationTime, now) === undefined
                                ? `${text} (not a time still to come)`
                                : `${utcTime(expirationTime)} (in ${formatDuration(expirationTime - now)})`,
                        ],
                        ['Token', 'in the masked output access-token'],
                    ],
                },
            ],
        };
    },
});

const TABLE_LIMIT = 50;
/** Every project the user can see. */
var listProjects = defineOperation({
    inputs: object({}),
    endpoints: [PROJECT_LIST],
    outputs: ['count'],
    credentials: 'any',
    describe: () => [],
    waits: () => false,
    async run(_, { api }) {
        const reply = await api.call({ endpoint: PROJECT_LIST, data: array(projectInPlace) });
        const list = reply.data ?? [];
        const rows = list.slice(0, TABLE_LIMIT).map((p) => [p.englishName, p.projectName, p.creator ?? '', p.enabled === false ? 'no' : 'yes']);
        const counted = `${list.length} project${list.length === 1 ? '' : 's'}`;
        const blocks = [{ kind: 'table', title: counted, headers: ['English name', 'Name', 'Creator', 'Enabled'], rows }];
        if (list.length > TABLE_LIMIT)
            blocks.push({ kind: 'note', text: `… and ${list.length - TABLE_LIMIT} more (all of them are in data-file)` });
        return { headline: counted, data: list, outputs: { count: String(list.length) }, blocks, status: reply.status };
    },
});

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
/**
 * `path`: the path after the API type, version first (`v4/projects/demo/build_histories`), as
 * segments. Nothing in it can leave the OpenAPI or change the route: no `..`, `?`, `#`, scheme,
 * empty segment or control character. Each segment is sent as exactly one segment.
 */
const path = string().transform((text, ctx) => {
    const problem = (why) => {
        ctx.addIssue({ code: 'custom', message: `path "${text}" ${why}` });
        return NEVER;
    };
    if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//'))
        return problem('must be a path after the API type, not a URL');
    if (/[?#]/.test(text))
        return problem('cannot hold "?" or "#": give query parameters in query');
    if ([...text].some((c) => isControl(c.charCodeAt(0))))
        return problem('cannot hold control characters');
    // One leading slash is forgiven; every other segment must be there.
    const segments = text.replace(/^\//, '').split('/');
    if (segments.some((s) => s === ''))
        return problem('cannot have an empty segment ("//" or a trailing "/")');
    if (segments.some((s) => s === '.' || s === '..'))
        return problem('cannot hold "." or ".." segments');
    if (!/^v\d+$/.test(segments[0] ?? ''))
        return problem('must start with the API version, e.g. v4/projects/demo/build_histories');
    return segments;
});
/** `query`: a mapping of names to a scalar, or to a list that repeats the parameter. */
const query = mapping('query').transform((value, ctx) => {
    const out = {};
    const scalar = (name, v) => {
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint')
            return String(v);
        if (JSON.isRawJSON(v))
            return v.rawJSON;
        ctx.addIssue({ code: 'custom', message: `query.${name} must be a text, a number, a boolean or a list of those` });
        return undefined;
    };
    for (const [name, v] of Object.entries(value)) {
        if (v === null || v === undefined)
            continue;
        const values = Array.isArray(v) ? v.map((item) => scalar(name, item)) : [scalar(name, v)];
        out[name] = values.filter((s) => s !== undefined);
    }
    return out;
});
/** `body`: any JSON value, written as JSON or YAML; whole numbers beyond 2^53 are kept to the digit. */
const body = string().transform(async (text, ctx) => {
    try {
        return { value: await parseJsonOrYaml(text) };
    }
    catch (e) {
        ctx.addIssue({
            code: 'custom',
            message: `body is neither JSON nor YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
        });
        return NEVER;
    }
});
/** The endpoint is the user's: `{...path}` stands for their segments, on bk-ci's gateway. */
const endpoint = (method) => onBoth(method, '{...path}');
/** Any bk-ci OpenAPI call, with the same auth, renewal, retries, wrapper check, redaction and outputs as every operation. */
var request = defineOperation({
    inputs: object({
        method: _enum(METHODS, { error: (i) => `method must be ${METHODS.join(', ')}, not "${String(i.input)}"` }).default('GET'),
        path,
        query: query.optional(),
        body: body.optional(),
    }),
    endpoints: [endpoint('GET')],
    outputs: [],
    credentials: 'any',
    describe: (t) => [
        ['method', t.method],
        ['path', t.path.join('/')],
        ['query', Object.keys(t.query ?? {}).join(', ')],
    ],
    waits: () => false,
    check: (t, settings) => settings.gateway === 'bk-apigateway' && t.path[0] !== 'v4'
        ? [`path "${t.path.join('/')}" starts with ${t.path[0]}, but bk-ci publishes only v4 on the BlueKing API Gateway`]
        : [],
    async run(t, { api }) {
        const reply = await api.call({
            endpoint: endpoint(t.method),
            params: { path: t.path },
            ...(t.query === undefined ? {} : { query: t.query }),
            ...(t.body === undefined ? {} : { body: t.body.value }),
            data: unknown(),
            exact: true,
        });
        const shown = `${t.method} ${t.path.join('/')}`;
        return {
            headline: `${shown}: HTTP ${reply.status}${reply.data === undefined ? ', no data' : ''}`,
            ...(reply.data === undefined ? {} : { data: reply.data }),
            outputs: {},
            blocks: [
                {
                    kind: 'facts',
                    rows: [
                        ['Request', shown],
                        ['HTTP status', String(reply.status)],
                        ['Data', reply.data === undefined ? 'none' : 'in the data and data-file outputs'],
                    ],
                },
            ],
            status: reply.status,
        };
    },
});

// The inputs every operation shares: where the gateway is, who the calls are made as, and the
// step's timing. Each operation declares its own inputs in its module.
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const settingsSchema = object({
    'base-url': string(),
    gateway: _enum(GATEWAYS, { error: (i) => `gateway must be ${GATEWAYS.join(' or ')}, not "${String(i.input)}"` }).default('bk-ci'),
    'app-secret': headerValue('app-secret', { secret: true }).optional(),
    'access-token': headerValue('access-token', { secret: true }).optional(),
    'bk-token': headerValue('bk-token', { secret: true, cookie: true }).optional(),
    'user-id': headerValue('user-id').optional(),
    'app-code': headerValue('app-code').optional(),
    timeout: duration('timeout', 1000, 72 * 3_600_000).default(30 * 60_000),
    'poll-interval': duration('poll-interval', 1000, 3_600_000).default(5000),
    'request-timeout': duration('request-timeout', 1000, 600_000).default(30_000),
    retries: string()
        .regex(/^\d+$/, 'retries must be a whole number from 0 to 10')
        .transform(Number)
        .refine((n) => n <= 10, 'retries must be a whole number from 0 to 10')
        .default(3),
    'allow-insecure-http': bool('allow-insecure-http').default(false),
})
    .transform((i, ctx) => {
    const baseUrl = checkBaseUrl(i['base-url'], i['allow-insecure-http']);
    if (typeof baseUrl !== 'string')
        ctx.addIssue({ code: 'custom', message: baseUrl.problem });
    return {
        baseUrl: typeof baseUrl === 'string' ? baseUrl : '',
        gateway: i.gateway,
        appSecret: i['app-secret'],
        accessToken: i['access-token'],
        bkToken: i['bk-token'],
        userId: i['user-id'],
        appCode: i['app-code'],
        timeoutMs: i.timeout,
        pollIntervalMs: i['poll-interval'],
        requestTimeoutMs: i['request-timeout'],
        retries: i.retries,
    };
});
/** Inputs that hold secrets: masked before anything is printed, whichever operation reads them. */
const SECRET_INPUTS = ['access-token', 'bk-token', 'app-secret'];
function checkBaseUrl(text, allowInsecure) {
    let url;
    try {
        url = new URL(text);
    }
    catch {
        return { problem: `base-url "${withoutCredentials(text)}" is not an absolute URL, e.g. https://devops.example.com` };
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        return { problem: `base-url must use https (or http), not ${url.protocol}` };
    if (url.username || url.password)
        return { problem: 'base-url must not hold a user name or password' };
    if (url.search || url.hash)
        return { problem: 'base-url must not have a query (?…) or fragment (#…)' };
    if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !allowInsecure) {
        return {
            problem: `base-url uses plain http to ${url.hostname}: the credentials travel with every request and could be read on the way. Use https, or set allow-insecure-http: true if the network is trusted`,
        };
    }
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

// Not published on the BlueKing API Gateway (removed from open-source bk-ci's v4 in 2022).
const SIGN_DETAIL = { method: 'GET', path: { 'bk-ci': 'v3/sign/ipa/{resignId}/detail', 'bk-apigateway': null } };
const SIGN_DOWNLOAD_URL = { method: 'GET', path: { 'bk-ci': 'v3/sign/ipa/{resignId}/downloadUrl', 'bk-apigateway': null } };
const OUTPUTS = ['sign-status', 'sign-message', 'elapsed', 'polls', 'download-url'];
/** Waits for an IPA re-signing task: polls it until SUCCESS or FAIL, then reads the download URL if asked. */
var signDetail = defineOperation({
    inputs: object({
        'resign-id': segment('resign-id'),
        wait: bool('wait').default(true),
        'download-url': bool('download-url').default(false),
    }),
    endpoints: [SIGN_DETAIL, SIGN_DOWNLOAD_URL],
    outputs: OUTPUTS,
    credentials: 'any',
    describe: (t, settings) => {
        const rows = [
            ['resign-id', t['resign-id']],
            ['wait', String(t.wait)],
        ];
        if (t.wait)
            rows.push(['timeout', formatDuration(settings.timeoutMs)], ['poll-interval', formatDuration(settings.pollIntervalMs)]);
        return rows;
    },
    waits: (t) => t.wait,
    run: (t, ctx) => signDetail$1(ctx.api, {
        resignId: t['resign-id'],
        wait: t.wait,
        downloadUrl: t['download-url'],
        timeoutMs: ctx.settings.timeoutMs,
        intervalMs: ctx.settings.pollIntervalMs,
        start: ctx.start,
    }, ctx),
});
const signDetailData = object({
    resignId: string().nullish(),
    status: string(),
    message: string().nullish(),
});
/** An absolute http(s) URL, or undefined: a server's URL is checked before it becomes an output. */
function httpUrl(text) {
    try {
        const u = new URL(text);
        // The URL parser drops tabs and line breaks: a URL holding any is not the one checked.
        return (u.protocol === 'https:' || u.protocol === 'http:') && !hasSpaceOrControl(text) ? text : undefined;
    }
    catch {
        return undefined;
    }
}
/**
 * Reads the task, and with `wait` polls it until SUCCESS or FAIL (the shared poll loop: schedule,
 * deadline, heartbeat, passing failures). `RUNNING` is the only status bk-ci has besides those;
 * any other is warned about once and waited on.
 */
async function signDetail$1(api, p, d) {
    const { clock, log } = d;
    const progress = { polls: 0, last: undefined, status: undefined, changes: [] };
    let downloadUrl;
    let status;
    const elapsed = () => clock.now() - p.start;
    const outcome = (headline) => ({ ...buildOutcome(headline, p, progress, elapsed(), downloadUrl), status });
    let warnedUnknown = false;
    if (p.wait)
        log.info(`waiting for re-sign task ${p.resignId}: timeout ${formatDuration(p.timeoutMs)}, a poll every ${formatDuration(p.intervalMs)}`);
    let end;
    try {
        end = await poll({
            read: async () => {
                const reply = await api
                    .call({ endpoint: SIGN_DETAIL, params: { resignId: p.resignId }, data: signDetailData })
                    .catch((e) => {
                    status = statusOf(e) ?? status;
                    throw e;
                });
                status = reply.status;
                if (reply.data === undefined)
                    throw new ResponseFormatError({
                        method: 'GET',
                        url: `re-sign task ${p.resignId}`,
                        status: reply.status,
                        detail: 'bk-ci answered without data',
                    });
                return reply.data;
            },
            status: (v) => v.status,
            describe: (v) => `${v.status}${v.message ? ` (${v.message})` : ''}`,
            verdict: (v) => {
                if (v.status === 'SUCCESS')
                    return 'done';
                if (v.status === 'FAIL')
                    return 'failed';
                if (v.status !== 'RUNNING' && !warnedUnknown) {
                    warnedUnknown = true;
                    log.warning(`re-sign task ${p.resignId} has status "${v.status}", which this action does not know; waiting on as for RUNNING`);
                }
                return 'waiting';
            },
        }, {
            start: p.start,
            timeoutMs: p.timeoutMs,
            intervalMs: p.intervalMs,
            wait: p.wait,
            clock,
            log,
            signal: d.signal,
            ...(d.heartbeatMs === undefined ? {} : { heartbeatMs: d.heartbeatMs }),
        }, progress);
    }
    catch (e) {
        const cancelled = e instanceof CancelledError;
        status = statusOf(e) ?? status;
        const message = cancelled
            ? `cancelled after ${formatDuration(elapsed())}, last status ${progress.status ?? 'unknown'}; the task goes on on the server`
            : `re-sign task ${p.resignId}: ${errorMessage(e)}`;
        throw new OperationError(message, outcome(`re-sign task ${p.resignId}: ${cancelled ? 'cancelled' : 'error'}`), { cause: e });
    }
    const signStatus = progress.status ?? 'unknown';
    if (end === 'failed')
        throw new OperationError(`re-sign task ${p.resignId} failed: ${progress.last?.message || 'no message'}`, outcome(`re-sign task ${p.resignId}: FAIL`));
    if (end === 'timeout')
        throw new OperationError(`re-sign task ${p.resignId} ${progress.last === undefined ? 'could not be read' : `is still ${signStatus} on the server`} after ${formatDuration(elapsed())} (${countOf(progress.polls, 'poll')}, timeout ${formatDuration(p.timeoutMs)}). ` +
            `The step stopped waiting; the task goes on.${troubleNote(progress, clock.now())} bk-ci also answers RUNNING for an id it does not know, so check that resign-id is right.`, outcome(`re-sign task ${p.resignId}: timed out`));
    if (signStatus === 'SUCCESS' && p.downloadUrl) {
        let url;
        try {
            const reply = await api.call({ endpoint: SIGN_DOWNLOAD_URL, params: { resignId: p.resignId }, data: string() });
            status = reply.status;
            url = reply.data;
        }
        catch (e) {
            if (e instanceof CancelledError)
                throw new OperationError(`cancelled after ${formatDuration(elapsed())}, while reading the download URL`, outcome('cancelled'), {
                    cause: e,
                });
            log.warning(`could not read the download URL of re-sign task ${p.resignId}: ${errorMessage(e)}`);
        }
        if (url === undefined)
            log.warning(`bk-ci gave no download URL for re-sign task ${p.resignId}`);
        else if (httpUrl(url) === undefined)
            throw new OperationError(`bk-ci gave a download URL for re-sign task ${p.resignId} that is not an absolute http(s) URL, so it is not set as an output: ${JSON.stringify(cut(url, 200))}`, outcome(`re-sign task ${p.resignId}: SUCCESS, download URL refused`));
        else
            downloadUrl = url;
    }
    return outcome(`re-sign task ${p.resignId}: ${signStatus} after ${formatDuration(elapsed())}, ${countOf(progress.polls, 'poll')}`);
}
function buildOutcome(headline, p, progress, elapsedMs, downloadUrl) {
    const message = progress.last?.message ?? '';
    const outputs = {
        'sign-status': progress.status ?? '',
        'sign-message': message,
        elapsed: seconds(elapsedMs),
        polls: String(progress.polls),
    };
    if (downloadUrl !== undefined)
        outputs['download-url'] = downloadUrl;
    const rows = [
        ['Task', p.resignId],
        ['Status', progress.status ?? 'unknown'],
        ['Message', message],
        ['Elapsed', formatDuration(elapsedMs)],
        ['Polls', String(progress.polls)],
    ];
    if (downloadUrl !== undefined)
        rows.push(['Download URL', downloadUrl]);
    const blocks = [{ kind: 'facts', rows }, ...changesTable(progress, p.start)];
    return { headline, ...(progress.last === undefined ? {} : { data: progress.last }), outputs, blocks };
}

/** `build-params`: a mapping whose values bk-ci takes as strings (Map<String, String>). */
const buildParams = mapping('build-params').transform((value, ctx) => {
    const out = {};
    for (const [key, v] of Object.entries(value)) {
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint')
            out[key] = String(v);
        else if (JSON.isRawJSON(v))
            out[key] = v.rawJSON;
        else if (v === null)
            out[key] = '';
        else
            ctx.addIssue({
                code: 'custom',
                message: `build-params.${key} must be a text, a number or a boolean: bk-ci takes every start parameter as text`,
            });
    }
    return out;
});
/** The commit this workflow runs for, as bk-ci's custom trigger material, unless build-params sets it. */
function material(w, params) {
    if (w === undefined)
        return {};
    const given = (k) => k in params;
    return {
        ...(given('BK_CI_MATERIAL_ID') ? {} : { BK_CI_MATERIAL_ID: w.sha }),
        ...(given('BK_CI_MATERIAL_NAME') ? {} : { BK_CI_MATERIAL_NAME: `${w.repository}@${w.ref}` }),
        ...(given('BK_CI_MATERIAL_URL') ? {} : { BK_CI_MATERIAL_URL: `${w.serverUrl}/${w.repository}/commit/${w.sha}` }),
    };
}
/** Starts a pipeline and, with wait, follows its build to the end; stops it if the job is cancelled. */
var startBuild = defineOperation({
    inputs: object({
        'project-id': segment('project-id'),
        'pipeline-id': pipelineIdInput,
        'build-params': buildParams.optional(),
        wait: waitInput,
        'stop-on-cancel': bool('stop-on-cancel').default(true),
        'console-url': consoleUrlInput,
    }),
    endpoints: [BUILD_START, BUILD_STATUS, BUILD_STOP],
    outputs: BUILD_OUTPUTS,
    credentials: 'any',
    describe: (t, settings) => [
        ['project-id', t['project-id']],
        ['pipeline-id', t['pipeline-id']],
        ['build-params', Object.keys(t['build-params'] ?? {}).join(', ')],
        ['wait', t.wait ? `yes, up to ${Math.round(settings.timeoutMs / 60_000)}m` : 'no'],
    ],
    waits: (t) => t.wait,
    async run(t, ctx) {
        const projectId = t['project-id'];
        const pipelineId = t['pipeline-id'];
        const params = t['build-params'] ?? {};
        const body = { ...params, ...material(ctx.workflow, params) };
        let reply;
        try {
            // A POST: sent once (retried only when bk-ci refused it or it was never sent).
            reply = await ctx.api.call({ endpoint: BUILD_START, params: { projectId }, query: { pipelineId }, body, data: buildId });
        }
        catch (e) {
            if (!(e instanceof ServerSaidError))
                throw e;
            const said = startProblem(e.serverStatus, e.status, { projectId, pipelineId, user: ctx.tokens.user ?? 'the user' }, e.serverMessage);
            if (said === undefined)
                throw e;
            throw new ActionError(`the build did not start: ${said} (bk-ci said: ${e.serverMessage})`, { status: e.status, cause: e });
        }
        const started = reply.data;
        if (started === undefined)
            throw new ActionError('bk-ci answered the start without a build id', { status: reply.status });
        const consoleUrl = t['console-url'] ?? ctx.settings.baseUrl;
        ctx.log.info(`started build #${started.num ?? '?'} (${started.id}) of pipeline ${pipelineId}: ${buildUrl(consoleUrl, projectId, pipelineId, started.id)}`);
        const watched = {
            projectId,
            pipelineId,
            id: started.id,
            num: started.num ?? undefined,
            wait: t.wait,
            consoleUrl,
            stopOnCancel: t['stop-on-cancel'],
        };
        return watchBuild(watched, ctx);
    },
});

/** The values of the `operation` input, as action.yml documents them. */
const OPERATION_NAMES = [
    'get-token',
    'sign-detail',
    'get-project',
    'list-projects',
    'create-project',
    'update-project',
    'create-callbacks',
    'request',
    'start-build',
    'build-status',
];
const REGISTRY = {
    'get-token': getToken,
    'sign-detail': signDetail,
    'get-project': getProject,
    'list-projects': listProjects,
    'create-project': createProject,
    'update-project': updateProject$1,
    'create-callbacks': createCallbacks,
    request,
    'start-build': startBuild,
    'build-status': buildStatus,
};
const MODULES = Object.values(REGISTRY);
const unique = (names) => [...new Set(names)];
/** Outputs every operation sets. */
const COMMON_OUTPUTS = ['data', 'data-file', 'http-status', 'user-id'];
/** Every input of action.yml: the shared settings and each operation's own. */
const INPUT_NAMES = unique(['operation', ...Object.keys(settingsSchema.in.shape), ...MODULES.flatMap((m) => m.inputNames)]);
/** Every output of action.yml. */
const OUTPUT_NAMES = unique([...COMMON_OUTPUTS, ...MODULES.flatMap((m) => m.outputs)]);
/** Inputs that hold secrets, whichever operation reads them: masked before anything is printed. */
const SECRET_INPUT_NAMES = unique([...SECRET_INPUTS, ...MODULES.flatMap((m) => m.secrets)]);
const isOperationName = (name) => OPERATION_NAMES.includes(name);
/** A gateway runs an operation only if it publishes every endpoint the operation may call. */
const publishes = (op, gateway) => op.endpoints.every((e) => e.path[gateway] !== null);
/**
 * All inputs, read once: the step to run, or an InputError that lists every problem (the
 * settings', the operation's own, and how they go together). Nothing is sent before this.
 */
async function prepareStep(get) {
    const raw = {};
    for (const name of INPUT_NAMES) {
        const v = get(name);
        if (v !== '')
            raw[name] = v;
    }
    const operation = raw.operation;
    if (operation === undefined)
        throw new InputError(['operation is required']);
    if (!isOperationName(operation))
        throw new InputError([`operation "${operation}" is not one of ${OPERATION_NAMES.join(', ')}`]);
    const op = REGISTRY[operation];
    const problems = [];
    const settings = settingsSchema.safeParse(raw);
    if (!settings.success)
        problems.push(...settings.error.issues.map((i) => i.path[0] === 'base-url' && i.code === 'invalid_type' ? 'base-url is required, e.g. https://devops.example.com' : i.message));
    const prepared = await op.prepare(raw, operation);
    if ('problems' in prepared)
        problems.push(...prepared.problems);
    if (settings.success)
        problems.push(...credentialProblems(operation, op, settings.data));
    if (settings.success && !publishes(op, settings.data.gateway))
        problems.push(`operation ${operation} is not published on the ${settings.data.gateway} gateway${settings.data.gateway === 'bk-apigateway' ? ': bk-ci publishes neither re-signing nor its token endpoint there; use gateway: bk-ci for it' : ''}`);
    if (settings.success && 'job' in prepared)
        problems.push(...prepared.job.check(settings.data));
    if (problems.length > 0 || !settings.success || !('job' in prepared))
        throw new InputError(problems);
    return { operation, settings: settings.data, job: prepared.job };
}
function credentialProblems(name, op, s) {
    if (s.gateway === 'bk-apigateway') {
        if ((s.appCode === undefined) !== (s.appSecret === undefined))
            return [
                'app-code and app-secret go together on the BlueKing API Gateway: give both (app state, apigw-app) or neither (user state, apigw-user)',
            ];
        if (s.appCode === undefined && s.bkToken === undefined && s.accessToken === undefined && s.userId === undefined)
            return [
                'the BlueKing API Gateway needs credentials: app-code with app-secret, or a user (bk-token, an access-token the gateway issued, or user-id)',
            ];
        return [];
    }
    if (s.appSecret !== undefined)
        return ["app-secret is for gateway: bk-apigateway; bk-ci's own gateway does not take it"];
    if (op.credentials === 'issued')
        return s.accessToken !== undefined && s.bkToken === undefined
            ? [`${name} issues a new token from bk-token; access-token cannot be used for it`]
            : [];
    return s.accessToken !== undefined && s.bkToken === undefined && s.userId === undefined
        ? ["user-id is required with access-token: the token's user cannot be read from the token itself (with bk-token it can)"]
        : [];
}

/**
 * The forms a secret can take in what the action writes: as given, percent-decoded and
 * percent-encoded, as the URL parser normalises it in a query, form-encoded, and JSON-escaped
 * (a secret with `"` or `\\` inside a JSON output).
 */
function secretForms(value) {
    const bases = new Set([value]);
    try {
        bases.add(decodeURIComponent(value));
    }
    catch {
        // not percent-encoded
    }
    const forms = new Set();
    for (const b of bases) {
        for (const f of [b, encodeURIComponent(b), queryForm(b), new URLSearchParams({ v: b }).toString().slice(2)]) {
            forms.add(f);
            forms.add(JSON.stringify(f).slice(1, -1));
        }
    }
    return [...forms];
}
/** The value as WHATWG's URL parser leaves it in a query string. */
function queryForm(value) {
    const url = new URL('http://h/');
    url.search = `a=${value}`;
    return url.search.slice(3);
}
/** Every secret the action has seen, for masking and for scrubbing text before it is shown. */
class Secrets {
    #values = new Set();
    #mask;
    #sorted = [];
    constructor(mask) {
        this.#mask = mask;
    }
    /** Registers the value and every form it may take; masks them at once. */
    add(value) {
        if (value === undefined || value.length < 4)
            return;
        for (const form of secretForms(value)) {
            if (form.length < 4 || this.#values.has(form))
                continue;
            this.#values.add(form);
            this.#mask(form);
        }
        // Longest first, so a secret that contains another is replaced whole.
        this.#sorted = [...this.#values].sort((a, b) => b.length - a.length);
    }
    /** The text with every form of every secret replaced by `***`. */
    redact(text) {
        let t = text;
        for (const v of this.#sorted)
            if (t.includes(v))
                t = t.split(v).join('***');
        return t;
    }
}

// The workflow a step runs in, as the runner describes it in its environment: the same variables
// @actions/github's Context reads (GITHUB_SHA, GITHUB_REPOSITORY, GITHUB_REF, GITHUB_SERVER_URL).
/** The workflow's commit, or undefined outside GitHub Actions. */
function workflowContext(env) {
    const sha = env.GITHUB_SHA ?? '';
    const repository = env.GITHUB_REPOSITORY ?? '';
    if (!/^[0-9a-f]{7,64}$/i.test(sha) || !/^[^/\s]+\/[^/\s]+$/.test(repository))
        return undefined;
    const ref = env.GITHUB_REF_NAME || (env.GITHUB_REF ?? '').replace(/^refs\/(heads|tags)\//, '');
    return { sha, repository, ref, serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '') };
}

const DATA_OUTPUT_LIMIT = 1024 * 1024;
const BATCH = 500;
/**
 * `data` as JSON in a file under RUNNER_TEMP, and inline too when it fits in 1 MiB. A list is
 * written a batch of items at a time, so a large one never becomes a single string. `scrub`
 * takes out secrets; each piece holds whole items, so a secret is never split between two.
 */
async function writeData(data, operation, runnerTemp, scrub = (text) => text) {
    const file = join(runnerTemp || tmpdir(), `bkci-${operation}-${randomUUID()}.json`);
    const handle = await open$1(file, 'w', 0o600);
    let bytes = 0;
    let inline = [];
    const write = async (raw) => {
        const text = scrub(raw);
        bytes += Buffer.byteLength(text);
        inline = inline && bytes <= DATA_OUTPUT_LIMIT ? [...inline, text] : undefined;
        await handle.write(text);
    };
    try {
        if (Array.isArray(data)) {
            await write('[');
            for (let i = 0; i < data.length; i += BATCH) {
                const part = data
                    .slice(i, i + BATCH)
                    .map((item) => JSON.stringify(item) ?? 'null')
                    .join(',');
                await write(i === 0 ? part : `,${part}`);
            }
            await write(']');
        }
        else {
            await write(JSON.stringify(data ?? null));
        }
    }
    finally {
        await handle.close();
    }
    return { file, inline: inline?.join('') };
}

const SUMMARY_LIMIT = 1024 * 1024;
/** The job summary as Markdown; every value in it is escaped, and the whole stays under 1 MiB. */
function renderSummary(s) {
    const scrub = s.scrub ?? ((text) => text);
    const cell = (text) => escapeMarkdown(scrub(text)) || ' ';
    const table = (headers, rows) => [
        `| ${headers.map(cell).join(' | ')} |`,
        `|${headers.map(() => '---').join('|')}|`,
        ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    ].join('\n');
    const parts = [`### ${s.ok ? '✅' : '❌'} bk-ci ${cell(s.operation)}: ${cell(s.headline)}`, `Host: ${cell(s.host)}`];
    if (!s.ok && s.error !== undefined)
        parts.push(`**Failed:** ${cell(s.error)}`);
    if (s.asked.length > 0)
        parts.push(table(['Asked', ''], s.asked));
    for (const b of s.blocks) {
        if (b.kind === 'facts')
            parts.push(table(['Result', ''], b.rows));
        else if (b.kind === 'table')
            parts.push(`**${cell(b.title)}**\n\n${table(b.headers, b.rows)}`);
        else
            parts.push(cell(b.text));
    }
    const md = `${parts.join('\n\n')}\n`;
    if (Buffer.byteLength(md) <= SUMMARY_LIMIT)
        return md;
    const cut = Buffer.from(md)
        .subarray(0, SUMMARY_LIMIT - 200)
        .toString('utf8');
    return `${cut.slice(0, cut.lastIndexOf('\n'))}\n\n… (summary cut at 1 MiB; the whole result is in data-file)\n`;
}

// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Sanitizes an input into a string so it can be passed into issueCommand safely
 * @param input input to sanitize into a string
 */
function toCommandValue(input) {
    if (input === null || input === undefined) {
        return '';
    }
    else if (typeof input === 'string' || input instanceof String) {
        return input;
    }
    return JSON.stringify(input);
}
/**
 *
 * @param annotationProperties
 * @returns The command properties to send with the actual annotation command
 * See IssueCommandProperties: https://github.com/actions/runner/blob/main/src/Runner.Worker/ActionCommandManager.cs#L646
 */
function toCommandProperties(annotationProperties) {
    if (!Object.keys(annotationProperties).length) {
        return {};
    }
    return {
        title: annotationProperties.title,
        file: annotationProperties.file,
        line: annotationProperties.startLine,
        endLine: annotationProperties.endLine,
        col: annotationProperties.startColumn,
        endColumn: annotationProperties.endColumn
    };
}

/**
 * Issues a command to the GitHub Actions runner
 *
 * @param command - The command name to issue
 * @param properties - Additional properties for the command (key-value pairs)
 * @param message - The message to include with the command
 * @remarks
 * This function outputs a specially formatted string to stdout that the Actions
 * runner interprets as a command. These commands can control workflow behavior,
 * set outputs, create annotations, mask values, and more.
 *
 * Command Format:
 *   ::name key=value,key=value::message
 *
 * @example
 * ```typescript
 * // Issue a warning annotation
 * issueCommand('warning', {}, 'This is a warning message');
 * // Output: ::warning::This is a warning message
 *
 * // Set an environment variable
 * issueCommand('set-env', { name: 'MY_VAR' }, 'some value');
 * // Output: ::set-env name=MY_VAR::some value
 *
 * // Add a secret mask
 * issueCommand('add-mask', {}, 'secretValue123');
 * // Output: ::add-mask::secretValue123
 * ```
 *
 * @internal
 * This is an internal utility function that powers the public API functions
 * such as setSecret, warning, error, and exportVariable.
 */
function issueCommand(command, properties, message) {
    const cmd = new Command(command, properties, message);
    process.stdout.write(cmd.toString() + os.EOL);
}
const CMD_STRING = '::';
class Command {
    constructor(command, properties, message) {
        if (!command) {
            command = 'missing.command';
        }
        this.command = command;
        this.properties = properties;
        this.message = message;
    }
    toString() {
        let cmdStr = CMD_STRING + this.command;
        if (this.properties && Object.keys(this.properties).length > 0) {
            cmdStr += ' ';
            let first = true;
            for (const key in this.properties) {
                if (this.properties.hasOwnProperty(key)) {
                    const val = this.properties[key];
                    if (val) {
                        if (first) {
                            first = false;
                        }
                        else {
                            cmdStr += ',';
                        }
                        cmdStr += `${key}=${escapeProperty(val)}`;
                    }
                }
            }
        }
        cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
        return cmdStr;
    }
}
function escapeData(s) {
    return toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A');
}
function escapeProperty(s) {
    return toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A')
        .replace(/:/g, '%3A')
        .replace(/,/g, '%2C');
}

// For internal use, subject to change.
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
function issueFileCommand(command, message) {
    const filePath = process.env[`GITHUB_${command}`];
    if (!filePath) {
        throw new Error(`Unable to find environment variable for file command ${command}`);
    }
    if (!fs.existsSync(filePath)) {
        throw new Error(`Missing file at path: ${filePath}`);
    }
    fs.appendFileSync(filePath, `${toCommandValue(message)}${os.EOL}`, {
        encoding: 'utf8'
    });
}
function prepareKeyValueMessage(key, value) {
    const delimiter = `ghadelimiter_${crypto.randomUUID()}`;
    const convertedValue = toCommandValue(value);
    // These should realistically never happen, but just in case someone finds a
    // way to exploit uuid generation let's not allow keys or values that contain
    // the delimiter.
    if (key.includes(delimiter)) {
        throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
    }
    if (convertedValue.includes(delimiter)) {
        throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
    }
    return `${key}<<${delimiter}${os.EOL}${convertedValue}${os.EOL}${delimiter}`;
}

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};

var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
const { access, appendFile, writeFile } = promises;
const SUMMARY_ENV_VAR = 'GITHUB_STEP_SUMMARY';
class Summary {
    constructor() {
        this._buffer = '';
    }
    /**
     * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
     * Also checks r/w permissions.
     *
     * @returns step summary file path
     */
    filePath() {
        return __awaiter(this, void 0, void 0, function* () {
            if (this._filePath) {
                return this._filePath;
            }
            const pathFromEnv = process.env[SUMMARY_ENV_VAR];
            if (!pathFromEnv) {
                throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
            }
            try {
                yield access(pathFromEnv, constants.R_OK | constants.W_OK);
            }
            catch (_a) {
                throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
            }
            this._filePath = pathFromEnv;
            return this._filePath;
        });
    }
    /**
     * Wraps content in an HTML tag, adding any HTML attributes
     *
     * @param {string} tag HTML tag to wrap
     * @param {string | null} content content within the tag
     * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
     *
     * @returns {string} content wrapped in HTML element
     */
    wrap(tag, content, attrs = {}) {
        const htmlAttrs = Object.entries(attrs)
            .map(([key, value]) => ` ${key}="${value}"`)
            .join('');
        if (!content) {
            return `<${tag}${htmlAttrs}>`;
        }
        return `<${tag}${htmlAttrs}>${content}</${tag}>`;
    }
    /**
     * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
     *
     * @param {SummaryWriteOptions} [options] (optional) options for write operation
     *
     * @returns {Promise<Summary>} summary instance
     */
    write(options) {
        return __awaiter(this, void 0, void 0, function* () {
            const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
            const filePath = yield this.filePath();
            const writeFunc = overwrite ? writeFile : appendFile;
            yield writeFunc(filePath, this._buffer, { encoding: 'utf8' });
            return this.emptyBuffer();
        });
    }
    /**
     * Clears the summary buffer and wipes the summary file
     *
     * @returns {Summary} summary instance
     */
    clear() {
        return __awaiter(this, void 0, void 0, function* () {
            return this.emptyBuffer().write({ overwrite: true });
        });
    }
    /**
     * Returns the current summary buffer as a string
     *
     * @returns {string} string of summary buffer
     */
    stringify() {
        return this._buffer;
    }
    /**
     * If the summary buffer is empty
     *
     * @returns {boolen} true if the buffer is empty
     */
    isEmptyBuffer() {
        return this._buffer.length === 0;
    }
    /**
     * Resets the summary buffer without writing to summary file
     *
     * @returns {Summary} summary instance
     */
    emptyBuffer() {
        this._buffer = '';
        return this;
    }
    /**
     * Adds raw text to the summary buffer
     *
     * @param {string} text content to add
     * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
     *
     * @returns {Summary} summary instance
     */
    addRaw(text, addEOL = false) {
        this._buffer += text;
        return addEOL ? this.addEOL() : this;
    }
    /**
     * Adds the operating system-specific end-of-line marker to the buffer
     *
     * @returns {Summary} summary instance
     */
    addEOL() {
        return this.addRaw(EOL);
    }
    /**
     * Adds an HTML codeblock to the summary buffer
     *
     * @param {string} code content to render within fenced code block
     * @param {string} lang (optional) language to syntax highlight code
     *
     * @returns {Summary} summary instance
     */
    addCodeBlock(code, lang) {
        const attrs = Object.assign({}, (lang && { lang }));
        const element = this.wrap('pre', this.wrap('code', code), attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML list to the summary buffer
     *
     * @param {string[]} items list of items to render
     * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
     *
     * @returns {Summary} summary instance
     */
    addList(items, ordered = false) {
        const tag = ordered ? 'ol' : 'ul';
        const listItems = items.map(item => this.wrap('li', item)).join('');
        const element = this.wrap(tag, listItems);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML table to the summary buffer
     *
     * @param {SummaryTableCell[]} rows table rows
     *
     * @returns {Summary} summary instance
     */
    addTable(rows) {
        const tableBody = rows
            .map(row => {
            const cells = row
                .map(cell => {
                if (typeof cell === 'string') {
                    return this.wrap('td', cell);
                }
                const { header, data, colspan, rowspan } = cell;
                const tag = header ? 'th' : 'td';
                const attrs = Object.assign(Object.assign({}, (colspan && { colspan })), (rowspan && { rowspan }));
                return this.wrap(tag, data, attrs);
            })
                .join('');
            return this.wrap('tr', cells);
        })
            .join('');
        const element = this.wrap('table', tableBody);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds a collapsable HTML details element to the summary buffer
     *
     * @param {string} label text for the closed state
     * @param {string} content collapsable content
     *
     * @returns {Summary} summary instance
     */
    addDetails(label, content) {
        const element = this.wrap('details', this.wrap('summary', label) + content);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML image tag to the summary buffer
     *
     * @param {string} src path to the image you to embed
     * @param {string} alt text description of the image
     * @param {SummaryImageOptions} options (optional) addition image attributes
     *
     * @returns {Summary} summary instance
     */
    addImage(src, alt, options) {
        const { width, height } = options || {};
        const attrs = Object.assign(Object.assign({}, (width && { width })), (height && { height }));
        const element = this.wrap('img', null, Object.assign({ src, alt }, attrs));
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML section heading element
     *
     * @param {string} text heading text
     * @param {number | string} [level=1] (optional) the heading level, default: 1
     *
     * @returns {Summary} summary instance
     */
    addHeading(text, level) {
        const tag = `h${level}`;
        const allowedTag = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(tag)
            ? tag
            : 'h1';
        const element = this.wrap(allowedTag, text);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML thematic break (<hr>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addSeparator() {
        const element = this.wrap('hr', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML line break (<br>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addBreak() {
        const element = this.wrap('br', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML blockquote to the summary buffer
     *
     * @param {string} text quote text
     * @param {string} cite (optional) citation url
     *
     * @returns {Summary} summary instance
     */
    addQuote(text, cite) {
        const attrs = Object.assign({}, (cite && { cite }));
        const element = this.wrap('blockquote', text, attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML anchor tag to the summary buffer
     *
     * @param {string} text link text/content
     * @param {string} href hyperlink
     *
     * @returns {Summary} summary instance
     */
    addLink(text, href) {
        const element = this.wrap('a', text, { href });
        return this.addRaw(element).addEOL();
    }
}
const _summary = new Summary();
const summary = _summary;

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
os__default.platform();
os__default.arch();

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
/**
 * The code to exit an action
 */
var ExitCode;
(function (ExitCode) {
    /**
     * A code indicating that the action was successful
     */
    ExitCode[ExitCode["Success"] = 0] = "Success";
    /**
     * A code indicating that the action was a failure
     */
    ExitCode[ExitCode["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
/**
 * Registers a secret which will get masked from logs
 *
 * @param secret - Value of the secret to be masked
 * @remarks
 * This function instructs the Actions runner to mask the specified value in any
 * logs produced during the workflow run. Once registered, the secret value will
 * be replaced with asterisks (***) whenever it appears in console output, logs,
 * or error messages.
 *
 * This is useful for protecting sensitive information such as:
 * - API keys
 * - Access tokens
 * - Authentication credentials
 * - URL parameters containing signatures (SAS tokens)
 *
 * Note that masking only affects future logs; any previous appearances of the
 * secret in logs before calling this function will remain unmasked.
 *
 * @example
 * ```typescript
 * // Register an API token as a secret
 * const apiToken = "abc123xyz456";
 * setSecret(apiToken);
 *
 * // Now any logs containing this value will show *** instead
 * console.log(`Using token: ${apiToken}`); // Outputs: "Using token: ***"
 * ```
 */
function setSecret$1(secret) {
    issueCommand('add-mask', {}, secret);
}
/**
 * Gets the value of an input.
 * Unless trimWhitespace is set to false in InputOptions, the value is also trimmed.
 * Returns an empty string if the value is not defined.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string
 */
function getInput$1(name, options) {
    const val = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '';
    return val.trim();
}
/**
 * Sets the value of an output.
 *
 * @param     name     name of the output to set
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function setOutput$1(name, value) {
    const filePath = process.env['GITHUB_OUTPUT'] || '';
    if (filePath) {
        return issueFileCommand('OUTPUT', prepareKeyValueMessage(name, value));
    }
    process.stdout.write(os.EOL);
    issueCommand('set-output', { name }, toCommandValue(value));
}
//-----------------------------------------------------------------------
// Results
//-----------------------------------------------------------------------
/**
 * Sets the action status to failed.
 * When the action exits it will be with an exit code of 1
 * @param message add error issue message
 */
function setFailed$1(message) {
    process.exitCode = ExitCode.Failure;
    error(message);
}
/**
 * Writes debug message to user log
 * @param message debug message
 */
function debug$1(message) {
    issueCommand('debug', {}, message);
}
/**
 * Adds an error issue
 * @param message error issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function error(message, properties = {}) {
    issueCommand('error', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a warning issue
 * @param message warning issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function warning$1(message, properties = {}) {
    issueCommand('warning', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Writes info to log with console.log.
 * @param message info message
 */
function info$1(message) {
    process.stdout.write(message + os.EOL);
}

// The runner's protocol, through @actions/core: inputs, workflow commands on stdout, outputs and
// the job summary in the files the runner names. This stays the one place that writes to stdout,
// and every message is defused on its way: no text, a server's or ours, can come out as a runner
// command (add-mask's value aside, which is ours). A command's message keeps its line breaks
// (core escapes them; the runner shows them inside the annotation); a plain line is folded.
/** The input's value, trimmed, or '' when not set (the runner sets every declared default). */
const getInput = (name) => getInput$1(name);
/** Masks the value in everything the runner shows from now on. */
const setSecret = (value) => setSecret$1(value);
const info = (message) => info$1(neutralise(message));
const debug = (message) => debug$1(defuse(message));
const warning = (message) => warning$1(defuse(message));
/** An error annotation, and the step's exit code 1. */
const setFailed = (message) => setFailed$1(defuse(message));
/** Any value, new lines included: core writes the runner's `name<<DELIMITER` form to GITHUB_OUTPUT. */
const setOutput = (name, value) => setOutput$1(name, value);
/** Appends Markdown to the job summary; false when the runner gave no summary file. */
async function appendSummary(markdown) {
    if (!process.env.GITHUB_STEP_SUMMARY)
        return false;
    await summary.addRaw(markdown).write();
    summary.emptyBuffer();
    return true;
}

/** The runner sends SIGTERM 7.5 s after SIGINT; a cancelled step is gone well before that. */
const CANCEL_EXIT_MS = 1800;
/** action.yml's runs.using; older runtimes lack what the action uses (JSON.rawJSON, among others). */
const NODE_MAJOR = 24;
/** The step: inputs once, one operation, outputs and summary, and the only setFailed. */
async function run(options = {}) {
    if (Number(process.versions.node.split('.')[0]) < NODE_MAJOR) {
        setFailed(`bk-ci action needs Node ${NODE_MAJOR} or newer (runs.using: node${NODE_MAJOR} in its action.yml), but this step runs on Node ${process.version}: update the runner, or run the action with Node ${NODE_MAJOR}.`);
        return;
    }
    const clock = options.clock ?? systemClock;
    const getInput$1 = options.getInput ?? getInput;
    const env = options.env ?? process.env;
    const start = clock.now();
    const secrets = new Secrets((v) => setSecret(v));
    // Masked before anything at all is printed, input errors included.
    for (const name of SECRET_INPUT_NAMES)
        secrets.add(getInput$1(name));
    // Secrets out before a long line is cut, so no part of one survives; the writer then keeps
    // each line from starting a runner command.
    const clean = (m) => cut(secrets.redact(m), 20_000);
    const log = {
        debug: (m) => debug(clean(m)),
        info: (m) => info(clean(m)),
        warning: (m) => warning(clean(m)),
    };
    const cancel = new AbortController();
    const onSignal = (signal) => {
        if (cancel.signal.aborted)
            return;
        log.info(`received ${signal}: stopping`);
        cancel.abort();
        setTimeout(() => process.exit(1), CANCEL_EXIT_MS).unref();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    let closeTransport = () => undefined;
    // Named in the failure and the summary even when the other inputs are wrong.
    const asked = getInput$1('operation');
    const operation = isOperationName(asked) ? asked : 'action';
    const baseUrl = getInput$1('base-url');
    let step;
    let connection;
    let outcome;
    try {
        step = await prepareStep(getInput$1);
        const proxy = proxyProblem(env);
        if (proxy !== undefined)
            throw new InputError([proxy]);
        const { settings, job } = step;
        let transport = options.transport;
        if (transport === undefined) {
            const opened = proxyConfigured(env) ? await proxyTransport() : nodeTransport({ keepAliveMs: job.waits ? 60_000 : 5000 });
            transport = opened.transport;
            closeTransport = opened.close;
        }
        connection = connect({
            ...settings,
            deadline: start + settings.timeoutMs,
            transport,
            clock,
            random: options.random ?? Math.random,
            log,
            secrets,
            signal: cancel.signal,
        });
        outcome = await job.run({ ...connection, settings, clock, log, signal: cancel.signal, start, workflow: workflowContext(env) });
        log.info(outcome.headline);
        await setOutputs(outcome, connection.tokens, secrets, operation);
        await writeSummary(operation, baseUrl, step, true, outcome, secrets);
    }
    catch (e) {
        if (e instanceof OperationError)
            outcome = e.outcome;
        let message = errorMessage(e);
        if (cancel.signal.aborted && !(e instanceof OperationError))
            message = `cancelled after ${formatDuration(clock.now() - start)}`;
        if (e instanceof InputError)
            message = `${message}\nNo request was sent.`;
        if (outcome?.done !== undefined)
            message = `${outcome.done}, but ${message}`;
        try {
            if (connection !== undefined)
                await setOutputs(outcome, connection.tokens, secrets, operation, e);
            await writeSummary(operation, baseUrl, step, false, outcome, secrets, message);
        }
        catch (inner) {
            log.warning(`could not write outputs or the summary: ${errorMessage(inner)}`);
        }
        setFailed(secrets.redact(`bk-ci ${operation} failed: ${message}`));
    }
    finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await Promise.resolve(closeTransport()).catch(() => undefined);
    }
}
/**
 * What is known: the HTTP status (the failure's own, else the last call's), the user, and the
 * outcome's outputs and data. Outputs carry server text too, so a secret it echoes is scrubbed;
 * get-token's access-token is the one output that is a secret by design (masked when it arrived).
 */
async function setOutputs(outcome, tokens, secrets, operation, error) {
    setOutput('http-status', String(statusOf(error) ?? outcome?.status ?? ''));
    const user = outcome?.user ?? tokens.user;
    if (user !== undefined)
        setOutput('user-id', user);
    if (outcome === undefined)
        return;
    for (const name of OUTPUT_NAMES) {
        const value = outcome.outputs[name];
        if (value !== undefined)
            setOutput(name, name === 'access-token' ? value : secrets.redact(value));
    }
    if ('data' in outcome) {
        const { file, inline } = await writeData(outcome.data, operation, process.env.RUNNER_TEMP, (text) => secrets.redact(text));
        setOutput('data-file', file);
        if (inline !== undefined)
            setOutput('data', inline);
        else
            warning(`the result is larger than 1 MiB, so the data output is empty; read it from the file in the data-file output (${file})`);
    }
}
const hostOf = (url) => {
    try {
        return new URL(url).host;
    }
    catch {
        return '';
    }
};
async function writeSummary(operation, baseUrl, step, ok, outcome, secrets, error) {
    const md = renderSummary({
        operation,
        host: hostOf(step?.settings.baseUrl ?? baseUrl),
        asked: step === undefined ? [] : step.job.describe(step.settings),
        ok,
        headline: outcome?.headline ?? (ok ? 'done' : 'failed'),
        blocks: outcome?.blocks ?? [],
        ...(error === undefined ? {} : { error }),
        scrub: (text) => secrets.redact(text),
    });
    await appendSummary(md);
}

await run();
