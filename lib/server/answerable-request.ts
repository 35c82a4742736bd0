/**
 * Keeps the connection of a request whose body was not read to its end (a limit, a malformed body, an
 * answer that needed none of it) until its answer is delivered. Node destroys the socket with the request
 * stream, so a 413 found while the body was still arriving reached nobody. Knows nothing of which reader
 * gave up or why.
 */
import { IncomingMessage, ServerResponse, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection closed after such an answer goes on reading (and discarding) what the client still sends. */
const LINGER_MS = 2000;

/** The private flag Node's HTTP parser reads to discard the rest of a body instead of pushing it (`IncomingMessage#_dump`). */
interface Dumpable {
  _dumped: boolean;
}

/**
 * The request and response classes for `http.createServer`, with `drainLimit` the most bytes of a body
 * left unread that are still read (and discarded) to keep the connection alive.
 * - A request stream destroyed before its answer's head is out no longer destroys the socket: the rest
 *   of its body is discarded as it arrives.
 * - An answer whose request body has not all arrived, and whose declared length is more than `drainLimit`
 *   (or unknown: chunked), carries `Connection: close`. Once it is flushed the server half-closes and keeps
 *   reading for a while, so that a client still sending is not reset (which would discard the answer it
 *   has not read yet) and reads the answer (lingering close, as Apache httpd does).
 * - Otherwise the body is read to its end after the answer (@hono/node-server drains it) and the
 *   connection serves the next request.
 */
export function answerableClasses(drainLimit: number): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  class AnswerableRequest extends IncomingMessage {
    response: { readonly headersSent: boolean } | undefined;

    override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
      const { response, socket } = this;
      if (response === undefined || response.headersSent || socket.destroyed) return super._destroy(error, callback);
      if (!this.complete) {
        (this as unknown as Dumpable)._dumped = true;
        // Undo a pause the body's backpressure may have put on the socket, so that the rest can be discarded.
        socket.resume();
      }
      // Like Node's own: an error nobody listens to is not raised again.
      callback(this.listenerCount('error') > 0 ? error : null);
    }
  }

  class AnswerableResponse extends ServerResponse<AnswerableRequest> {
    constructor(request: AnswerableRequest) {
      super(request);
      request.response = this;
    }

    override writeHead(statusCode: number, message?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
      const { req: request, socket } = this;
      if (socket && !request.complete && bodyBeyond(request, drainLimit)) {
        this.setHeader('connection', 'close');
        lingerOnClose(socket);
      }
      return typeof message === 'string' ? super.writeHead(statusCode, message, headers) : super.writeHead(statusCode, message);
    }
  }

  return { IncomingMessage: AnswerableRequest, ServerResponse: AnswerableResponse as unknown as typeof ServerResponse };
}

/**
 * Whether the request has a body longer than `limit`, or of unknown length (chunked). A request without
 * `Content-Length` and `Transfer-Encoding` has none, though Node marks it complete only after its handler ran.
 */
function bodyBeyond(request: IncomingMessage, limit: number): boolean {
  // Read from the raw headers: `request.headers` is built on first use, a cost every response would pay.
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') return true;
    if (name.length === 14 && name.toLowerCase() === 'content-length') return !(Number(raw[i + 1]) <= limit);
  }
  return false;
}

/** After the last answer, Node calls `destroySoon`: half-close instead, and destroy only once the client has closed too or after `LINGER_MS`. */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket): void {
    if (this.writableEnded) return;
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}
