/**
 * `framework.http.body-idle-timeout`: Node's `requestTimeout` bounds the whole request only, so a stalled upload kept
 * its partial file for minutes. And `framework.http.request-timeout` over HTTP/2, where Node bounds nothing: a body
 * trickling a byte within each idle timeout held its stream for good. One timer sweeps every body. Knows nothing of
 * who reads a body or how.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { httpProblem } from '../errors/http-problem';
import { logging } from '../logging/logger';
import { nodeHttp, nodeHttp2, type Incoming, type Outgoing } from './node-http';

const log = logging.getLogger('rxrest.server');

/** A body is ended at most this long after its timeout. */
const MAX_SWEEP_MS = 1000;

/** In an array: a `Set` of one entry per request kept promoting requests to the old generation (7 µs a request). */
export interface Watched {
  readonly incoming: Incoming;
  readonly outgoing: Outgoing;
  /** Bytes of the body (HTTP/2) or of the connection (HTTP/1.1) read at the last sweep that saw some arrive. */
  read: number;
  since: number;
  readonly started: number;
  /** HTTP/2 only; `ended` once its END_STREAM came, read or not. */
  received?: Received;
  /** -1 once let go. */
  index: number;
}

interface Received {
  bytes: number;
  ended: boolean;
}

/** Not a `data` listener, which would set the stream flowing before the request's reader is there. */
function countPushed(incoming: Http2ServerRequest): Received {
  const received = { bytes: 0, ended: false };
  const push = incoming.push;
  incoming.push = function (this: Http2ServerRequest, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk instanceof Uint8Array) received.bytes += chunk.byteLength;
    else if (chunk === null) received.ended = true;
    return push.call(this, chunk, encoding);
  };
  return received;
}

/** In the request, or (HTTP/2) in its stream, not yet handed on. */
function unread(incoming: Incoming): number {
  return (
    incoming.readableLength +
    (incoming instanceof nodeHttp().IncomingMessage ? 0 : (incoming.stream?.readableLength ?? 0))
  );
}

/** The connection's (one HTTP/1.1 body arrives on it at a time), or the HTTP/2 stream's. */
function bytesRead(watched: Watched): number {
  const { incoming, outgoing } = watched;
  if (watched.received) return watched.received.bytes;
  const socket = (incoming as IncomingMessage).socket ?? (outgoing as ServerResponse).socket;
  return socket?.bytesRead ?? 0;
}

export class IdleBodies {
  readonly #timeoutMs: number;
  readonly #http2TimeoutMs: number;
  /** In no order: each knows its place, so that letting one go is a swap, not a search. */
  readonly #bodies: Watched[] = [];
  #timer: NodeJS.Timeout | undefined;

  /** Each 0 for none; `http2TimeoutMs` bounds a whole HTTP/2 request (Node bounds HTTP/1.1's itself). */
  constructor(timeoutMs: number, http2TimeoutMs = 0) {
    this.#timeoutMs = timeoutMs;
    this.#http2TimeoutMs = http2TimeoutMs;
  }

  /** `undefined` when no timeout applies to it. */
  watch(incoming: Incoming, outgoing: Outgoing): Watched | undefined {
    const http1 = incoming instanceof nodeHttp().IncomingMessage;
    if (this.#timeoutMs === 0 && (http1 || this.#http2TimeoutMs === 0)) return undefined;
    const now = Date.now();
    const watched: Watched = { incoming, outgoing, read: 0, since: now, started: now, index: this.#bodies.length };
    if (!http1) watched.received = countPushed(incoming);
    watched.read = bytesRead(watched);
    this.#bodies.push(watched);
    const shortest = Math.min(...[this.#timeoutMs, this.#http2TimeoutMs].filter((timeout) => timeout > 0));
    this.#timer ??= setInterval(this.#sweep, Math.min(MAX_SWEEP_MS, Math.max(10, shortest / 4))).unref();
    return watched;
  }

  release(watched: Watched): void {
    const { index } = watched;
    if (index < 0) return;
    const last = this.#bodies.pop()!;
    if (last !== watched) {
      this.#bodies[index] = last;
      last.index = index;
    }
    watched.index = -1;
  }

  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    for (const watched of this.#bodies) watched.index = -1;
    this.#bodies.length = 0;
  }

  readonly #sweep = (): void => {
    const now = Date.now();
    // From the end: letting one go moves the last one, already seen, into its place.
    for (let i = this.#bodies.length - 1; i >= 0; i--) {
      const watched = this.#bodies[i]!;
      const { incoming, outgoing } = watched;
      // An HTTP/2 request is `complete` only once read to its end: one whose end came is whole, read or not.
      if (incoming.complete || watched.received?.ended || incoming.destroyed || outgoing.writableEnded) {
        this.release(watched);
        continue;
      }
      const read = bytesRead(watched);
      // Bytes that wait unread: the reader is slow, not the client.
      const waiting = unread(incoming) > 0;
      const { method, url } = incoming;
      if (watched.received && !waiting && this.#http2TimeoutMs > 0 && now - watched.started >= this.#http2TimeoutMs) {
        this.release(watched);
        const seconds = this.#http2TimeoutMs / 1000;
        const why = `The request body did not arrive whole within ${seconds} s`;
        this.#expire(watched, why, `The body of ${method} ${url} did not arrive whole within ${seconds} s`);
      } else if (read !== watched.read || waiting) {
        watched.read = read;
        watched.since = now;
      } else if (this.#timeoutMs > 0 && now - watched.since >= this.#timeoutMs) {
        this.release(watched);
        const seconds = this.#timeoutMs / 1000;
        const why = `No byte of the request body arrived for ${seconds} s`;
        this.#expire(watched, why, `No byte of the body of ${method} ${url} arrived for ${seconds} s`);
      }
    }
    if (this.#bodies.length === 0) this.close();
  };

  #expire({ incoming, outgoing }: Watched, why: string, logged: string): void {
    log.debug(`${logged}: ended with 408`);
    if (outgoing instanceof nodeHttp().ServerResponse) {
      // The answer says `Connection: close` and the connection ends with it: the rest of the body never comes.
      if (!outgoing.headersSent) outgoing.shouldKeepAlive = false;
      else outgoing.once('finish', () => outgoing.socket?.destroySoon());
    } else {
      // The session carries other streams: only this one ends, without error, once its answer is out (RFC 9113 §8.1).
      // (The stream's own `finish`: the compatibility response's comes only once the stream has closed.)
      const { stream } = outgoing;
      stream.once('finish', () => stream.close(nodeHttp2().constants.NGHTTP2_NO_ERROR));
    }
    // A body nobody reads has no listener for the error: the 408 is its answer, not the process's end.
    incoming.on('error', () => undefined);
    incoming.destroy(httpProblem('RXREST_BODY_TIMEOUT', `${why}; the request ends`));
  }
}
