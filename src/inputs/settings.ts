// The inputs every operation shares: where the gateway is, who the calls are made as, and the
// step's timing. Each operation declares its own inputs in its module.
import { z } from '../base/schema.ts';
import type { ConnectionSettings } from '../bkci/connect.ts';
import { GATEWAYS } from '../bkci/routes.ts';
import { baseUrlPathProblem } from './base-url.ts';
import { bool, duration, headerValue, withoutCredentials } from './fields.ts';

/** The connection's settings, and the step's timing. */
export interface Settings extends ConnectionSettings {
  timeoutMs: number;
  pollIntervalMs: number;
  /** Plain http to a host other than loopback was allowed (base-url, download-hosts). */
  allowInsecureHttp?: boolean;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export const settingsSchema = z
  .object({
    'base-url': z.string(),
    gateway: z.enum(GATEWAYS, { error: (i) => `gateway must be ${GATEWAYS.join(' or ')}, not "${String(i.input)}"` }).default('bk-ci'),
    'app-secret': headerValue('app-secret', { secret: true }).optional(),
    'access-token': headerValue('access-token', { secret: true }).optional(),
    'bk-token': headerValue('bk-token', { secret: true, cookie: true }).optional(),
    'user-id': headerValue('user-id').optional(),
    'app-code': headerValue('app-code').optional(),
    timeout: duration('timeout', 1000, 72 * 3_600_000).default(30 * 60_000),
    'poll-interval': duration('poll-interval', 1000, 3_600_000).default(5000),
    'request-timeout': duration('request-timeout', 1000, 600_000).default(30_000),
    retries: z
      .string()
      .regex(/^\d+$/, 'retries must be a whole number from 0 to 10')
      .transform(Number)
      .refine((n) => n <= 10, 'retries must be a whole number from 0 to 10')
      .default(3),
    'allow-insecure-http': bool('allow-insecure-http').default(false),
  })
  .transform((given, ctx): Settings => {
    const baseUrl = checkBaseUrl(given['base-url'], given['allow-insecure-http']);
    if (typeof baseUrl !== 'string') ctx.addIssue({ code: 'custom', message: baseUrl.problem });
    return {
      baseUrl: typeof baseUrl === 'string' ? baseUrl : '',
      gateway: given.gateway,
      appSecret: given['app-secret'],
      accessToken: given['access-token'],
      bkToken: given['bk-token'],
      userId: given['user-id'],
      appCode: given['app-code'],
      timeoutMs: given.timeout,
      pollIntervalMs: given['poll-interval'],
      requestTimeoutMs: given['request-timeout'],
      retries: given.retries,
      allowInsecureHttp: given['allow-insecure-http'],
    };
  });

/** Inputs that hold secrets: masked before anything is printed, whichever operation reads them. */
export const SECRET_INPUTS = ['access-token', 'bk-token', 'app-secret'] as const;

function checkBaseUrl(text: string, allowInsecure: boolean): string | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `base-url "${withoutCredentials(text)}" is not an absolute URL, e.g. https://devops.example.com` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: `base-url must use https (or http), not ${url.protocol}` };
  if (url.username || url.password) return { problem: 'base-url must not hold a user name or password' };
  if (url.search || url.hash) return { problem: 'base-url must not have a query (?…) or fragment (#…)' };
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !allowInsecure) {
    return {
      problem: `base-url uses plain http to ${url.hostname}: the credentials travel with every request and could be read on the way. Use https, or set allow-insecure-http: true if the network is trusted`,
    };
  }
  const path = url.pathname.replace(/\/+$/, '');
  const wrongPath = baseUrlPathProblem(url.origin, path);
  if (wrongPath !== undefined) return { problem: wrongPath };
  return `${url.origin}${path}`;
}
