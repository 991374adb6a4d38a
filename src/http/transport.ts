// What a transport is: one HTTP exchange, the request and the answer as the layers above see them,
// and how an answer's body is read (bounded, or handed to a sink as it arrives) whichever
// transport sends it: node:http (node-transport.ts) or fetch behind a proxy (proxy-transport.ts).

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  maxBodyBytes: number;
  /** Takes a successful (2xx) answer's body as it arrives, instead of it being kept: a fresh one per attempt. */
  sink?: (() => BodySink) | undefined;
  /**
   * On a connection of its own, not behind a request still under way on the shared one (after a
   * cancel, the start's POST may hang there while the build is looked for and stopped).
   */
  ownConnection?: boolean;
}

/**
 * Where a body goes a chunk at a time. What it finds wrong in the body it says later; it throws
 * only a LocalError (a file on the runner could not be written), which ends the request as it is.
 */
export interface BodySink {
  write(chunk: Uint8Array): void;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  /** Empty when the request's sink took it. */
  body: string;
}

/** One HTTP exchange, the whole body read under the request's signal. */
export type Transport = (req: WireRequest) => Promise<WireResponse>;

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  /** The HTTP status of the answer whose body was refused. */
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/** The sink a successful answer's body goes to, when the request gave one. */
export const sinkFor = (req: WireRequest, status: number): BodySink | undefined =>
  status >= 200 && status < 300 ? req.sink?.() : undefined;

/** Whether the body is sent as it is (no content coding). */
export const identity = (encoding: string | null | undefined): boolean => encoding == null || /^\s*(identity)?\s*$/i.test(encoding);

/** The Content-Length, refused at once when it is over the cap. */
export function declaredLength(header: string | null | undefined, max: number, status: number): number | undefined {
  const declared = header != null && /^\d+$/.test(header) ? Number(header) : undefined;
  if (declared !== undefined && declared > max)
    throw new BodyTooLargeError(`the response body of ${declared} bytes exceeds the limit of ${max} bytes`, status);
  return declared;
}

/**
 * The body as text, at most `max` bytes. With an exact length (no content coding) the chunks are
 * copied into one buffer as they come, rather than kept in a list and joined, which held the
 * body twice. With a sink, each chunk goes to it and nothing is kept.
 */
export async function readBody(
  stream: AsyncIterable<Uint8Array>,
  exact: number | undefined,
  max: number,
  status: number,
  sink: BodySink | undefined,
): Promise<string> {
  const whole = exact === undefined || sink !== undefined ? undefined : Buffer.allocUnsafe(exact);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size + chunk.byteLength > (whole?.length ?? max)) {
      throw new BodyTooLargeError(
        whole ? 'the response body is longer than its Content-Length' : `the response body exceeds the limit of ${max} bytes`,
        status,
      );
    }
    if (sink) sink.write(chunk);
    else if (whole) whole.set(chunk, size);
    else chunks.push(chunk);
    size += chunk.byteLength;
  }
  if (sink) return '';
  return (whole ?? Buffer.concat(chunks, size)).toString('utf8', 0, size);
}
