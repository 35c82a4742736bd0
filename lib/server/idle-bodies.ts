/**
 * Request bodies still arriving, watched for a client that stops sending (`framework.http.body-idle-timeout`):
 * one no byte of arrives for the timeout while nothing of it waits unread fails with a 408 problem, which whoever
 * reads it answers (a multipart upload removes what it wrote), and its connection (HTTP/1.1) or stream (HTTP/2)
 * ends after that answer. Node's own `requestTimeout` bounds the whole request only, so a stalled upload would keep
 * its partial file for minutes. One timer sweeps every body a server watches: a request with a body costs a small
 * record until its answer is sent, not a timer of its own. Knows nothing of who reads a body or how.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { constants, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { httpProblem } from '../errors/http-problem';
import { logging } from '../logging/logger';

const log = logging.getLogger('rxrest.server');

/** The longest time between two sweeps: a body is ended at most this long after its timeout. */
const MAX_SWEEP_MS = 1000;

/**
 * A body being watched, in an array rather than a `Set` or `Map`: with one entry added and deleted per request, a hash
 * table kept promoting requests to the old generation (mark-compacts under load, about 7 µs more CPU per `POST /echo`);
 * the array costs nothing measurable.
 */
export interface Watched {
  readonly incoming: IncomingMessage | Http2ServerRequest;
  readonly outgoing: ServerResponse | Http2ServerResponse;
  /** Bytes of the body (HTTP/2) or of the connection (HTTP/1.1) read at the last sweep that saw some arrive. */
  read: number;
  /** When bytes last arrived (or were waiting to be read). */
  since: number;
  /** HTTP/2: the bytes of the stream so far. */
  received?: { bytes: number };
  /** Its place among the watched bodies; -1 once let go. */
  index: number;
}

/**
 * Counts the bytes the HTTP/2 compatibility layer hands the request as they come. A `data` listener on the stream
 * would set it flowing before the request's reader is there, and what it read would be lost to that reader.
 */
function countPushed(incoming: Http2ServerRequest): { bytes: number } {
  const received = { bytes: 0 };
  const push = incoming.push;
  incoming.push = function (this: Http2ServerRequest, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk instanceof Uint8Array) received.bytes += chunk.byteLength;
    return push.call(this, chunk, encoding);
  };
  return received;
}

/** Bytes of the body that arrived but wait unread: in the request, or (HTTP/2) in its stream, not yet handed on. */
function unread(incoming: IncomingMessage | Http2ServerRequest): number {
  return incoming.readableLength + (incoming instanceof IncomingMessage ? 0 : (incoming.stream?.readableLength ?? 0));
}

/** Bytes read so far: the connection's (one HTTP/1.1 body arrives on it at a time), or the HTTP/2 stream's. */
function bytesRead(watched: Watched): number {
  const { incoming, outgoing } = watched;
  if (watched.received) return watched.received.bytes;
  const socket = (incoming as IncomingMessage).socket ?? (outgoing as ServerResponse).socket;
  return socket?.bytesRead ?? 0;
}

export class IdleBodies {
  readonly #timeoutMs: number;
  /** The bodies watched, in no order; each knows its place, so that letting one go is a swap, not a search. */
  readonly #bodies: Watched[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** Watches the body of a request from now until it has arrived, or {@link release} (its answer is sent). */
  watch(incoming: IncomingMessage | Http2ServerRequest, outgoing: ServerResponse | Http2ServerResponse): Watched {
    const watched: Watched = { incoming, outgoing, read: 0, since: Date.now(), index: this.#bodies.length };
    if (!(incoming instanceof IncomingMessage)) watched.received = countPushed(incoming);
    watched.read = bytesRead(watched);
    this.#bodies.push(watched);
    this.#timer ??= setInterval(this.#sweep, Math.min(MAX_SWEEP_MS, Math.max(10, this.#timeoutMs / 4))).unref();
    return watched;
  }

  /** Stops watching a body: its answer is sent, what is left of it is drained or not. */
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

  /** Stops watching (the server closed). */
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
      if (incoming.complete || incoming.destroyed || outgoing.writableEnded) {
        this.release(watched);
        continue;
      }
      const read = bytesRead(watched);
      // Bytes that arrived, or wait unread (the reader is slow, not the client): not idle.
      if (read !== watched.read || unread(incoming) > 0) {
        watched.read = read;
        watched.since = now;
      } else if (now - watched.since >= this.#timeoutMs) {
        this.release(watched);
        this.#expire(watched);
      }
    }
    if (this.#bodies.length === 0) this.close();
  };

  #expire({ incoming, outgoing }: Watched): void {
    const seconds = this.#timeoutMs / 1000;
    log.debug(`No byte of the body of ${incoming.method} ${incoming.url} arrived for ${seconds} s: ended with 408`);
    if (outgoing instanceof ServerResponse) {
      // The answer says `Connection: close`, and the connection ends with it: the rest of the body never comes.
      if (!outgoing.headersSent) outgoing.shouldKeepAlive = false;
      else outgoing.once('finish', () => outgoing.socket?.destroySoon());
    } else {
      // The session carries other streams: only this one ends, without error, once its answer is out (RFC 9113 §8.1).
      // (The stream's own `finish`: the compatibility response's comes only once the stream has closed.)
      const { stream } = outgoing;
      stream.once('finish', () => stream.close(constants.NGHTTP2_NO_ERROR));
    }
    incoming.destroy(
      httpProblem('RXREST_BODY_TIMEOUT', `No byte of the request body arrived for ${seconds} s; the request ends`),
    );
  }
}
