// The build's files as bk-ci's gateway serves them (docs/bkci/artifacts-and-variables.md): its
// login check first (the `bk_token` cookie in installations with login, nothing in those without,
// the installer's `sample`), then bk-repo's generic download (realm `bkrepo`: Content-Length,
// Accept-Ranges, Range → 206 or 416, ETag = the SHA-256, X-Checksum-Sha256) or bk-ci's own disk
// (realm `local`: Content-Type, Content-disposition and Cache-Control, nothing else, no ranges).
// With `storage`, bk-repo answers 302 to a second origin standing for object storage (COS), which
// serves the bytes on a signed link without checksum headers. Faults for these paths (cut, stall,
// a wrong checksum, other headers) are applied here, on bytes rather than on JSON.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { type ArtifactWorld, LOCAL_DOWNLOAD_PATH, type Node, type Realm } from './artifacts.ts';
import type { Fault } from './faults.ts';
import type { FileBytes } from './file-bytes.ts';
import { readRange } from './file-bytes.ts';
import { type LoopbackServer, listenOnLoopback } from './loopback.ts';
import type { StoredProject } from './project-record.ts';
import type { TokenAuthority } from './tokens.ts';
import { html, json, type Reply, sendReply } from './wire.ts';

const BKREPO_PREFIX = '/bkrepo/api/user/generic/';
/** Faults about a file's bytes, applied here; the others (a status, a reset, a hang) as for every answer. */
const BYTE_FAULTS = new Set<Fault['kind']>(['cut', 'stall', 'checksum', 'headers']);

/** How the installation serves files; `POST /__emulator/files` changes it. */
export const filesBody = z
  .object({
    realm: z.enum(['bkrepo', 'local']).optional(),
    /** The gateway asks for the bk_token cookie (rbac, bk_login); false: the `sample` provider, no login. */
    login: z.boolean().optional(),
    /** bk-repo answers 302 to the storage origin instead of sending the bytes. */
    storage: z.boolean().optional(),
  })
  .strict();

export interface StorageRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
}

interface Hooks {
  artifacts: ArtifactWorld;
  tokens: TokenAuthority;
  projects: Map<string, StoredProject>;
  onHold?: ((request: { method: string; path: string }) => void) | undefined;
  /** The fault armed for this request, if any (storage requests take theirs here too). */
  fault: (method: string, path: string) => Fault | undefined;
}

export class FileServer {
  login = true;
  storage = false;
  /** Requests the storage origin received, in order: what reached it, cookies included. */
  readonly storageLog: StorageRequest[] = [];
  readonly #h: Hooks;
  readonly #signed = new Map<string, Node>();
  #storage: LoopbackServer | undefined;

  constructor(hooks: Hooks) {
    this.#h = hooks;
  }

  get realm(): Realm {
    return this.#h.artifacts.realm;
  }

  set realm(realm: Realm) {
    this.#h.artifacts.realm = realm;
  }

  /** Changes how files are served; what they are served as now. */
  set(settings: z.output<typeof filesBody>): { realm: Realm; login: boolean; storage: boolean; storageUrl: string } {
    if (settings.realm !== undefined) this.realm = settings.realm;
    if (settings.login !== undefined) this.login = settings.login;
    if (settings.storage !== undefined) this.storage = settings.storage;
    return { realm: this.realm, login: this.login, storage: this.storage, storageUrl: this.storageUrl };
  }

  /** The storage origin's URL. */
  get storageUrl(): string {
    return this.#storage?.url ?? '';
  }

  /** Whether the path is a file download of either realm. */
  handles(path: string): boolean {
    return path.startsWith(BKREPO_PREFIX) || path === LOCAL_DOWNLOAD_PATH;
  }

  /** Answers a download behind the gateway; `fallback` answers the faults that are not about bytes (status, reset, hang). */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
    fault: Fault | undefined,
    fallback: (fault: Fault) => void,
  ): void {
    if (fault?.kind === 'delay') {
      setTimeout(() => this.serve(req, res, path, query, undefined, fallback), fault.ms);
      return;
    }
    if (fault !== undefined && !BYTE_FAULTS.has(fault.kind)) {
      fallback(fault);
      return;
    }
    const local = path === LOCAL_DOWNLOAD_PATH;
    const node = local ? this.#h.artifacts.findLocal(query.get('filePath') ?? '') : this.#bkrepoNode(path);
    const refused = this.#refusal(req, node, local);
    if (refused !== undefined || node === undefined) {
      sendReply(res, refused ?? json(404, {}));
      return;
    }
    const bytes = this.#h.artifacts.bytesOf(node);
    if (!local && this.storage) this.#redirect(res, node);
    else
      void this.#bytes(
        req,
        res,
        bytes,
        local ? { ranges: false, headers: localHeaders(node) } : { ranges: true, headers: bkrepoHeaders(bytes) },
        fault,
      );
  }

  /** The gateway's login check (auth_request: nginx's own 401 page), then the file and the user's download permission. */
  #refusal(req: IncomingMessage, node: Node | undefined, local: boolean): Reply | undefined {
    const ticket = /(?:^|;\s*)bk_token=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
    const user = this.login ? this.#h.tokens.userOfTicket(ticket) : 'admin';
    if (user === undefined) return html(401, 'Authorization Required');
    if (node === undefined)
      return local
        ? json(404, { status: 404, message: 'file not found' })
        : json(404, { code: 251009, message: 'node not found', data: null });
    const project = this.#h.projects.get(node.build.projectId);
    if (this.login && !(project?.members.has(user) || project?.viewers.has(user)))
      return json(403, { code: 250101, message: `user[${user}] does not have [download] permission`, data: null });
    return undefined;
  }

  /** `/bkrepo/api/user/generic/<"/{project}/{repo}/{fullPath}", one encoded segment or several>`. */
  #bkrepoNode(path: string): Node | undefined {
    let decoded: string;
    try {
      // java.net.URLDecoder, as the gateway hands the path on: `+` is a space.
      decoded = decodeURIComponent(path.slice(BKREPO_PREFIX.length).replaceAll('+', ' '));
    } catch {
      return undefined;
    }
    const match = /^\/*([^/]+)\/([^/]+)\/(.*)$/.exec(decoded);
    return match === null ? undefined : this.#h.artifacts.find(match[1] ?? '', match[2] ?? '', match[3] ?? '');
  }

  /** bk-repo's CosRedirectService: 302 to a signed link on the storage origin. */
  #redirect(res: ServerResponse, node: Node): void {
    const key = randomBytes(8).toString('hex');
    const sign = randomBytes(16).toString('hex');
    this.#signed.set(`${key}:${sign}`, node);
    const name = encodeURIComponent(node.fullPath.split('/').at(-1) ?? 'file');
    res.writeHead(302, { location: `${this.storageUrl}/cos/${key}/${name}?sign=${sign}`, 'content-length': '0' });
    res.end();
  }

  /** The bytes of a file, whole or the range asked for, with the fault's change. */
  async #bytes(
    req: IncomingMessage,
    res: ServerResponse,
    bytes: FileBytes,
    options: { ranges: boolean; headers: Record<string, string> },
    fault: Fault | undefined,
  ): Promise<void> {
    const range = options.ranges ? readRange(req.headers.range, bytes.size) : undefined;
    if (range === 'unsatisfiable')
      return sendReply(res, {
        ...json(416, { code: 416, message: 'Requested Range Not Satisfiable' }),
        headers: { 'content-range': `bytes */${bytes.size}` },
      });
    const { start, end } = range ?? { start: 0, end: bytes.size };
    const headers: Record<string, string> = { ...options.headers };
    if (options.ranges) {
      headers['content-length'] = String(end - start);
      headers['content-range'] = `bytes ${start}-${Math.max(start, end - 1)}/${bytes.size}`;
    }
    if (fault?.kind === 'checksum') {
      const wrong = bytes.sha256().replace(/^./, (c) => (c === '0' ? '1' : '0'));
      headers['x-checksum-sha256'] = wrong;
      headers.etag = wrong;
    }
    const set = fault?.kind === 'headers' || fault?.kind === 'cut' ? fault.set : undefined;
    if (set !== undefined)
      for (const [name, value] of Object.entries(set)) {
        if (value === null) delete headers[name.toLowerCase()];
        else headers[name.toLowerCase()] = value;
      }
    res.writeHead(range === undefined ? 200 : 206, headers);
    const stopAt =
      fault?.kind === 'cut' ? start + fault.bytes : fault?.kind === 'stall' ? start + (fault.bytes ?? Math.floor((end - start) / 2)) : end;
    for (const chunk of bytes.chunks(start, Math.min(end, stopAt))) if (!res.write(chunk) && !(await drained(res))) return;
    if (stopAt >= end) res.end();
    else if (fault?.kind === 'cut') res.write('', () => req.socket.destroy());
    else res.write('', () => this.#h.onHold?.({ method: req.method ?? '', path: req.url ?? '' }));
  }

  /** The storage origin: a server of its own on another port. */
  async start(host: string): Promise<void> {
    this.#storage = await listenOnLoopback((req, res) => this.#storageAnswer(req, res), { host });
  }

  #storageAnswer(req: IncomingMessage, res: ServerResponse): void {
    const [path = '', query = ''] = (req.url ?? '/').split('?');
    this.storageLog.push({ method: req.method ?? 'GET', path, query, headers: { ...req.headers } });
    const key = /^\/cos\/([0-9a-f]+)\//.exec(path)?.[1];
    const node = this.#signed.get(`${key}:${new URLSearchParams(query).get('sign')}`);
    // COS's refusal of a link whose signature it does not know.
    if (node === undefined) {
      sendReply(res, { status: 403, contentType: 'application/xml', body: '<Error><Code>AccessDenied</Code></Error>' });
      return;
    }
    const fault = this.#h.fault(req.method ?? 'GET', path);
    if (fault !== undefined && !BYTE_FAULTS.has(fault.kind)) {
      sendReply(res, json(fault.kind === 'status' ? fault.status : 500, { message: 'injected' }));
      return;
    }
    const bytes = this.#h.artifacts.bytesOf(node);
    // COS: its own ETag (not a SHA-256), ranges, no checksum headers of bk-repo's.
    const headers = { 'content-type': 'application/octet-stream', etag: `"${bytes.md5()}"`, 'accept-ranges': 'bytes' };
    void this.#bytes(req, res, bytes, { ranges: true, headers }, fault);
  }

  async close(): Promise<void> {
    await this.#storage?.close();
  }
}

/** DefaultArtifactResourceWriter.writeSingleArtifact: length, ranges, the SHA-256 as ETag and checksum, the MD5. */
function bkrepoHeaders(bytes: FileBytes): Record<string, string> {
  return {
    'content-type': 'application/octet-stream',
    'accept-ranges': 'bytes',
    etag: bytes.sha256(),
    'x-checksum-sha256': bytes.sha256(),
    'x-checksum-md5': bytes.md5(),
    'last-modified': new Date(0).toUTCString(),
  };
}

/** DiskArchiveFileServiceImpl.downloadFileToLocal: these three, then the bytes (chunked: no Content-Length). */
function localHeaders(node: Node): Record<string, string> {
  const name = node.fullPath.split('/').at(-1) ?? '';
  return {
    'content-type': 'application/octet-stream',
    'content-disposition': `attachment;filename=${encodeURIComponent(name)}`,
    'cache-control': 'no-cache',
  };
}

/** Resolves once the response can take more (true), or is closed (false). */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (more: boolean) => (): void => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(more);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
