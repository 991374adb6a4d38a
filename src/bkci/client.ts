// One bk-ci OpenAPI call: the path on the gateway, the token in the query, bk-ci's headers, both
// of its result wrappers, its error bodies, and one renewal when it says the token expired.

import type { Clock } from '../base/clock.ts';
import { CancelledError, NotSentError, notSent } from '../base/errors.ts';
import type { JsonItemSink } from '../base/json-stream.ts';
import type { z } from '../base/schema.ts';
import type { CallRequest, HttpCaller, SideBudget } from '../http/caller.ts';
import { kindOf } from '../http/retry.ts';
import type { BodySink, WireResponse } from '../http/transport.ts';
import { type ListRead, ListReader } from './list-reader.ts';
import { redactUrl } from './redact-url.ts';
import { parseJson, unwrap } from './result.ts';
import { type ApiType, type Endpoint, type Gateway, type PathParams, resolvePath } from './routes.ts';
import { describeTokenProblem, tokenProblem } from './token-problems.ts';
import type { TokenSource } from './tokens.ts';

type Query = Readonly<Record<string, string | readonly string[] | undefined>>;

/** How the call is sent when the job is cancelled or an answer is wanted soon: as the HTTP request says (src/http/caller.ts). */
interface RequestSpec extends Pick<CallRequest, 'detached' | 'survivesCancel' | 'once'> {
  endpoint: Endpoint;
  params?: PathParams;
  /** A list value repeats the parameter. */
  query?: Query;
  /** Sent as JSON; POST and PUT send `{}` when there is none. */
  body?: unknown;
  /** A read beside the wait: its own short budget instead of the step's deadline (see SideBudget). */
  budget?: SideBudget;
}

export interface CallSpec<T> extends RequestSpec {
  data: z.ZodType<T>;
  /** Whole numbers beyond 2^53 kept to the digit (as raw JSON), for data that is sent back. */
  exact?: boolean;
}

/** A call whose `data` is a list, read an item at a time as it arrives (see `ListReader`). */
export interface ListSpec<T> extends RequestSpec {
  item: z.ZodType<T>;
  /** How many of the first items to keep as objects; every item goes to `into` as JSON text. */
  keep: number;
  into: JsonItemSink;
}

interface Reader<T> {
  /** Takes a successful answer's body as it arrives, instead of it being kept. */
  sink?: () => BodySink;
  read(res: WireResponse, method: string, url: string, scrub: (text: string) => string): T | undefined;
}

/** What one call returned: the checked `data` (undefined when bk-ci sent none), the HTTP status, the user it was made as. */
export interface Reply<T> {
  data: T | undefined;
  status: number;
  user: string;
}

export interface ApiOptions {
  baseUrl: string;
  gateway: Gateway;
  appCode?: string | undefined;
  tokens: TokenSource;
  /** No request starts past it; set to the step's deadline. */
  deadline?: number | undefined;
  clock: Clock;
  /** On the BlueKing API Gateway: the X-Bkapi-Authorization value, the API type, the user when known. */
  gatewayAuth?: { header: string; type: ApiType; user?: string | undefined } | undefined;
}

/** The bk-ci OpenAPI: paths per gateway, headers, the token in the query, both wrappers, renewal on expiry. */
export class BkciApi {
  readonly #http: HttpCaller;
  readonly #options: ApiOptions;

  constructor(http: HttpCaller, options: ApiOptions) {
    this.#http = http;
    this.#options = options;
  }

  get gateway(): Gateway {
    return this.#options.gateway;
  }

  call<T>(spec: CallSpec<T>): Promise<Reply<T>> {
    return this.#withToken(spec, {
      read: (res, method, url, scrub) => unwrap(parseJson(res, method, url, scrub, spec.exact), spec.data, res, method, url, scrub),
    });
  }

  list<T>(spec: ListSpec<T>): Promise<Reply<ListRead<T>>> {
    return this.#withToken(spec, new ListReader(spec.item, spec.keep, spec.into));
  }

  async #withToken<T>(spec: RequestSpec, read: Reader<T>): Promise<Reply<T>> {
    // The gateway verifies the credentials itself: nothing to renew, its refusals speak for themselves.
    if (this.#options.gatewayAuth !== undefined) return this.#once(spec, read, undefined);
    try {
      // A request sent after a cancel takes the token in hand: a renewal now would be cut off.
      return await this.#once(spec, read, await this.#token(spec, { unexpired: spec.detached !== undefined }));
    } catch (error) {
      const problem = tokenProblem(error);
      if (problem === undefined) throw error;
      const renewed =
        problem.kind === 'expired' &&
        (await this.#options.tokens.renewAfterExpiry().catch((r: unknown) => this.#unsent(spec, 'renewal', r)));
      if (renewed) {
        try {
          return await this.#once(spec, read, await this.#token(spec));
        } catch (again) {
          const second = tokenProblem(again);
          if (second === undefined) throw again;
          throw describeTokenProblem(second, this.#options.tokens, again, true, this.#options.clock.now());
        }
      }
      throw describeTokenProblem(problem, this.#options.tokens, error, false, this.#options.clock.now());
    }
  }

  /** The token; a failure to get it comes before the request, which was then never sent. */
  #token(spec: RequestSpec, when?: { unexpired: boolean }): Promise<{ token: string; userId: string }> {
    return this.#options.tokens.current(when).catch((e: unknown) => this.#unsent(spec, 'token', e));
  }

  /**
   * A request its token kept from bk-ci: a write says so in its own words (its outcome is known:
   * not applied); a read is marked as never sent and keeps the token's words.
   */
  #unsent(spec: RequestSpec, how: 'token' | 'renewal', cause: unknown): never {
    const { method } = spec.endpoint;
    if (kindOf(method, spec.endpoint.kind) === 'read' || cause instanceof CancelledError) throw notSent(cause);
    const path = resolvePath(spec.endpoint, this.#options.gateway, spec.params) ?? spec.endpoint.path['bk-ci'];
    throw new NotSentError(`${method} ${this.#options.baseUrl}${path}`, how, cause);
  }

  async #once<T>(spec: RequestSpec, read: Reader<T>, creds: { token: string; userId: string } | undefined): Promise<Reply<T>> {
    const { method } = spec.endpoint;
    const gw = this.#options.gatewayAuth;
    const path = resolvePath(spec.endpoint, this.#options.gateway, spec.params, gw?.type);
    if (path === undefined)
      throw notSent(new Error(`${method} ${spec.endpoint.path['bk-ci']} is not published on the ${this.#options.gateway} gateway`));
    const query = Object.entries(spec.query ?? {})
      .flatMap(([k, v]) => (v === undefined ? [] : typeof v === 'string' ? [[k, v]] : v.map((item) => [k, item])))
      .map(([k, v]) => `&${encodeURIComponent(k ?? '')}=${encodeURIComponent(v ?? '')}`)
      .join('');
    // bk-ci's own gateway takes the token in the query, already percent-encoded by bk-ci: sent
    // exactly as issued, never re-encoded. The BlueKing API Gateway takes none there.
    const url =
      creds === undefined
        ? `${this.#options.baseUrl}${path}${query === '' ? '' : `?${query.slice(1)}`}`
        : `${this.#options.baseUrl}${path}?access_token=${creds.token}${query}`;
    const shownUrl = redactUrl(url);
    const shown = shownUrl.split('?')[0] ?? shownUrl;
    const user = creds?.userId ?? gw?.user;
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
    // Whenever the user is known: bk-ci trusts it behind the gateway unless its JWT filter is on.
    if (user !== undefined && user !== '') headers['x-devops-uid'] = user;
    if (gw !== undefined) headers['x-bkapi-authorization'] = gw.header;
    if (this.#options.appCode !== undefined) headers['x-devops-app-code'] = this.#options.appCode;
    const body = method === 'GET' || (method === 'DELETE' && spec.body === undefined) ? undefined : JSON.stringify(spec.body ?? {});
    const res = await this.#http.call({
      method,
      url,
      shownUrl,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(this.#options.deadline === undefined ? {} : { deadline: this.#options.deadline }),
      ...(spec.detached === undefined ? {} : { detached: spec.detached }),
      ...(spec.survivesCancel ? { survivesCancel: true } : {}),
      ...(spec.once === undefined ? {} : { once: spec.once }),
      ...(spec.budget === undefined ? {} : { budget: spec.budget }),
      ...(spec.endpoint.kind === undefined ? {} : { kind: spec.endpoint.kind }),
      ...(read.sink === undefined ? {} : { sink: read.sink }),
    });
    const data = read.read(res, method, shown, (t) => this.#http.scrub(t));
    return { data, status: res.status, user: user ?? '' };
  }
}
