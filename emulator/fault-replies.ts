// What an armed fault (faults.ts) does to a request instead of its normal answer, or to that
// answer: another status or wrapper, a dropped connection, no answer, a body cut or left
// unfinished, a late answer, fields patched in its `data`. The faults about a build file's bytes
// are applied by emulator/files.ts; here they leave any other answer as it is.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault } from './faults.ts';
import { html, json, type Reply, sendReply } from './wire.ts';

/** One request and the response to it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/** Told of each request a fault holds without its (whole) answer. */
export type HoldListener = ((request: { method: string; path: string }) => void) | undefined;

/** Answers the exchange as the fault says; `answer` is the normal answer, asked for only by the faults that change it. */
export function replyWithFault(fault: Fault, exchange: Exchange, answer: () => Reply, onHold: HoldListener): void {
  const { req, res } = exchange;
  const held = () => onHold?.({ method: req.method ?? '', path: req.url ?? '' });
  switch (fault.kind) {
    case 'reset':
      req.socket.destroy();
      return;
    case 'hang':
      held();
      return;
    case 'truncate':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":0,"data":{"resignId":"s-');
      return;
    case 'stall':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":0,"data":', held);
      return;
    case 'cut': {
      const reply = answer();
      res.writeHead(reply.status, { 'content-type': `${reply.contentType};charset=utf-8`, ...reply.headers });
      res.write(Buffer.from(reply.body).subarray(0, fault.bytes), () => req.socket.destroy());
      return;
    }
    case 'delay':
      setTimeout(() => sendReply(res, answer()), fault.ms);
      return;
    default:
      sendReply(res, replacedAnswer(fault, answer));
  }
}

/** The answer a fault sends whole in place of the normal one (or the normal one, changed). */
function replacedAnswer(
  fault: Extract<Fault, { kind: 'status' | 'wrapper-status' | 'patch' | 'checksum' | 'headers' }>,
  answer: () => Reply,
): Reply {
  switch (fault.kind) {
    case 'status':
      return statusReply(fault);
    case 'wrapper-status':
      return json(200, { status: fault.status, message: fault.message ?? 'injected failure' });
    case 'patch':
      return patchData(answer(), fault.data);
    // About a build file's bytes (emulator/files.ts): any other answer is sent as it is.
    case 'checksum':
    case 'headers':
      return answer();
  }
}

/** A `status` fault's answer: its body, or a made-up one in the content type it names. */
function statusReply(fault: Extract<Fault, { kind: 'status' }>): Reply {
  const type = fault.contentType ?? 'json';
  const body =
    fault.body ??
    (type === 'html'
      ? html(fault.status, 'Error').body
      : type === 'json'
        ? JSON.stringify({ status: fault.status, message: `injected ${fault.status}` })
        : `injected ${fault.status}`);
  const contentType = type === 'html' ? 'text/html' : type === 'json' ? 'application/json' : 'text/plain';
  return { status: fault.status, body, contentType, ...(fault.headers ? { headers: fault.headers } : {}) };
}

/** The answer with `fields` set in its wrapper's `data` object; any other answer as it is. */
function patchData(reply: Reply, fields: Record<string, unknown>): Reply {
  try {
    const body = JSON.parse(reply.body) as unknown;
    if (typeof body !== 'object' || body === null || !('data' in body)) return reply;
    const data = (body as { data: unknown }).data;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return reply;
    return { ...reply, body: JSON.stringify({ ...body, data: { ...data, ...fields } }) };
  } catch {
    return reply;
  }
}
