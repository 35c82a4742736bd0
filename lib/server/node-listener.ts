/** `listen()`'s request listener: no Web `Request` or `Response` unless asked for. Knows no routes or answers. */
import type { ServerResponse } from 'node:http';
import type { HostRules } from '../http/allowed-hosts';
import { needsNormalizing, requestUrl, RequestTargetError } from '../http/request-target';
import { logging } from '../logging/logger';
import { RequestContext } from '../context/request-context';
import { declaredBody, makeAnswerable } from './answerable-request';
import type { IdleBodies, Watched } from './idle-bodies';
import { answerFailure, refuse } from './own-answers';
import { hostOf, servedAs } from './request-host';
import { nodeHttp, type Incoming, type Outgoing, type RequestListener } from './node-http';

const log = logging.getLogger('rxrest.server');

const DRAIN_MS = 500;
const DRAIN_BYTES = 64 * 1024 * 1024;

export type ServeNode = (ctx: RequestContext) => void | Promise<void>;

/** A failure no stage answered (or one in answering). */
function fail(outgoing: Outgoing, error: unknown, nosniff: boolean): void {
  log.error('A request failed outside the pipeline', error);
  answerFailure(outgoing, nosniff);
}

/** As `ListenOptions` says them. */
export interface ListenerOptions {
  readonly drainLimit: number;
  readonly hosts?: HostRules;
  readonly nosniff: boolean;
  /** Absent: no idle timeout. */
  readonly idleBodies?: IdleBodies;
}

/** So the connection can carry the next request; past the limits it is closed (for HTTP/2, the stream). */
function drainAfterAnswer(incoming: Incoming, outgoing: Outgoing, idleBodies?: IdleBodies, watched?: Watched): void {
  outgoing.once('finish', () => {
    if (watched) idleBodies!.release(watched);
    // Nothing is left on the wire once the whole body has arrived, whoever holds what waits unread.
    if (incoming.complete || incoming.destroyed) return;
    let read = 0;
    const stop = () => {
      clearTimeout(timer);
      incoming.off('readable', take);
    };
    const close = () => {
      stop();
      if (incoming instanceof nodeHttp().IncomingMessage) incoming.socket?.destroySoon();
      else incoming.destroy();
    };
    // Read, not resumed: a reader that stopped mid-body (an iterator that threw) may still listen for `readable`,
    // which keeps a resumed stream paused and its `end` unseen; the connection was then cut, carrying the next request.
    const take = () => {
      for (let chunk: Buffer | null; (chunk = incoming.read() as Buffer | null) !== null;) {
        read += chunk.length;
        if (read > DRAIN_BYTES) return close();
      }
    };
    const timer = setTimeout(close, DRAIN_MS);
    timer.unref();
    incoming.on('readable', take);
    incoming.once('end', stop);
  });
}

/** Only a request with a body needs its answer guarded, its rest drained, and its arrival watched. */
function guardBody(incoming: Incoming, outgoing: Outgoing, drainLimit: number, idleBodies?: IdleBodies): void {
  if (incoming instanceof nodeHttp().IncomingMessage) {
    const body = declaredBody(incoming, drainLimit);
    if (body === 'none') return;
    makeAnswerable(incoming, outgoing as ServerResponse, body);
  } else if (incoming.method === 'GET' || incoming.method === 'HEAD') return;
  // An HTTP/2 request whose headers ended its stream has no body to wait for.
  const waits = incoming instanceof nodeHttp().IncomingMessage || !incoming.stream.endAfterHeaders;
  const watched = waits ? idleBodies?.watch(incoming, outgoing) : undefined;
  drainAfterAnswer(incoming, outgoing, watched && idleBodies, watched);
}

/** Node asks for every body (`100 Continue`); one whose `Content-Length` is past `limit` is not asked for: a 413. */
export function continueWithin(
  limit: number,
  server: { emit(event: 'request', ...args: unknown[]): boolean },
): RequestListener {
  return (incoming, outgoing) => {
    if (!(Number(incoming.headers['content-length']) > limit)) outgoing.writeContinue();
    server.emit('request', incoming, outgoing);
  };
}

export function nodeListener(serve: ServeNode, scheme: 'http' | 'https', options: ListenerOptions): RequestListener {
  const { drainLimit, hosts, nosniff, idleBodies } = options;
  const hostRefused = 'The request is for a host this server does not serve';
  return (incoming, outgoing) => {
    let host = hostOf(incoming);
    if (host === null)
      return refuse(outgoing, 'RXREST_INVALID_HOST', 'The request has more than one Host header', nosniff);
    const target = incoming.url ?? '/';
    let url: string | undefined;
    let served = scheme;
    try {
      // The asterisk form asks about the server as a whole (RFC 9110 §9.3.7): no route to find, nothing to send.
      if (target === '*' && incoming.method === 'OPTIONS') {
        if (hosts?.allows?.(host) === false) return refuse(outgoing, 'RXREST_INVALID_HOST', hostRefused, nosniff);
        return void outgoing.writeHead(200, { 'content-length': '0' }).end();
      }
      if (hosts === undefined) {
        if (needsNormalizing(host, target)) url = requestUrl(scheme, host, target);
      } else {
        const as = servedAs(scheme, host, target, hosts);
        if (!as) return refuse(outgoing, 'RXREST_INVALID_HOST', hostRefused, nosniff);
        ({ scheme: served, host, url } = as);
      }
    } catch (error) {
      if (!(error instanceof RequestTargetError)) throw error;
      return refuse(outgoing, 'RXREST_MALFORMED_PATH', `The request target cannot be read: ${error.message}`, nosniff);
    }
    guardBody(incoming, outgoing, drainLimit, idleBodies);
    try {
      const answered = serve(RequestContext.fromNode(incoming, outgoing, served, host, url));
      if (answered) answered.catch((error: unknown) => fail(outgoing, error, nosniff));
    } catch (error) {
      fail(outgoing, error, nosniff);
    }
  };
}
