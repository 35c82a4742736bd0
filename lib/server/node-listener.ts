/**
 * The request listener of `listen()`'s servers: a request context made straight from Node's request, the
 * application's pipeline, and the answer written onto Node's response — no Web `Request` or `Response` in
 * between unless something asks for one. Knows nothing of routes or answers; the pipeline does.
 */
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { PROBLEM_JSON, problemDetails } from '../errors/problem-details';
import { needsNormalizing, requestUrl, RequestTargetError } from '../http/request-target';
import { logging } from '../logging/logger';
import { RequestContext } from '../context/request-context';
import { declaredBody, makeAnswerable } from './answerable-request';

const log = logging.getLogger('rxrest.server');

/** How long, and how many bytes of, an unread request body are read and discarded after the answer to keep the connection. */
const DRAIN_MS = 500;
const DRAIN_BYTES = 64 * 1024 * 1024;

/** Runs a request through the application and answers it on Node's response. */
export type ServeNode = (ctx: RequestContext) => void | Promise<void>;

/** The `Host` header from Node's raw list (reading `headers` would make Node build its header object); HTTP/2's `:authority`. */
function hostOf(incoming: IncomingMessage | Http2ServerRequest): string {
  if (!(incoming instanceof IncomingMessage)) return incoming.authority ?? 'localhost';
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') return raw[i + 1]!;
  }
  return 'localhost';
}

/** A failure no stage answered (or one in answering): 500 while the head is not out, else the answer cut short. */
function fail(outgoing: ServerResponse | Http2ServerResponse, error: unknown): void {
  log.error('A request failed outside the pipeline', error);
  if (outgoing.headersSent) return void outgoing.destroy();
  outgoing.writeHead(500, { 'content-type': 'text/plain;charset=UTF-8' });
  outgoing.end('Internal Server Error');
}

/** A request whose target or `Host` makes no URL: 400 problem JSON, as for a malformed path. */
function refuse(outgoing: ServerResponse | Http2ServerResponse, detail: string): void {
  const body = JSON.stringify(problemDetails('RXREST_MALFORMED_PATH', `The request target cannot be read: ${detail}`));
  outgoing.writeHead(400, {
    'content-type': `${PROBLEM_JSON};charset=UTF-8`,
    'content-length': String(Buffer.byteLength(body)),
  });
  outgoing.end(body);
}

/**
 * After the answer, what is left of a body nobody read is read and discarded, so the connection can carry the
 * next request; past `DRAIN_BYTES` or `DRAIN_MS` the connection is closed instead (an HTTP/2 stream only: the
 * session carries others). (An answer to a large body still arriving already said `Connection: close`; see
 * `answerable-request.ts`.)
 */
function drainAfterAnswer(
  incoming: IncomingMessage | Http2ServerRequest,
  outgoing: ServerResponse | Http2ServerResponse,
): void {
  outgoing.once('finish', () => {
    if (incoming.readableEnded || incoming.destroyed) return;
    let read = 0;
    const stop = () => {
      clearTimeout(timer);
      incoming.off('data', count);
    };
    const close = () => {
      stop();
      if (incoming instanceof IncomingMessage) incoming.socket?.destroySoon();
      else incoming.destroy();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_BYTES) close();
    };
    const timer = setTimeout(close, DRAIN_MS);
    timer.unref();
    incoming.on('data', count);
    incoming.once('end', stop);
    incoming.resume();
  });
}

/**
 * The listener of `listen()`'s servers, for HTTP/1.1 requests and HTTP/2 streams alike; `drainLimit` is the most
 * bytes of a body left unread that are still read (and discarded) to keep an HTTP/1.1 connection.
 */
export function nodeListener(
  serve: ServeNode,
  scheme: 'http' | 'https',
  drainLimit: number,
): (incoming: IncomingMessage | Http2ServerRequest, outgoing: ServerResponse | Http2ServerResponse) => void {
  return (incoming, outgoing) => {
    const host = hostOf(incoming);
    const target = incoming.url ?? '/';
    let url: string | undefined;
    try {
      if (needsNormalizing(host, target)) url = requestUrl(scheme, host, target);
    } catch (error) {
      if (!(error instanceof RequestTargetError)) throw error;
      return refuse(outgoing, error.message);
    }
    if (incoming instanceof IncomingMessage) {
      // Only a request with a body needs its answer guarded and its rest drained.
      const body = declaredBody(incoming, drainLimit);
      if (body !== 'none') {
        makeAnswerable(incoming, outgoing as ServerResponse, body);
        drainAfterAnswer(incoming, outgoing);
      }
    } else if (incoming.method !== 'GET' && incoming.method !== 'HEAD') drainAfterAnswer(incoming, outgoing);
    try {
      const served = serve(RequestContext.fromNode(incoming, outgoing, scheme, host, url));
      if (served) served.catch((error: unknown) => fail(outgoing, error));
    } catch (error) {
      fail(outgoing, error);
    }
  };
}
