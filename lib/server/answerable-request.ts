/**
 * Keeps the connection of a request whose body was not read to its end (a limit, a malformed body, an
 * answer that needed none of it) until its answer is delivered. Node destroys the socket with the request
 * stream, so a 413 found while the body was still arriving reached nobody. Knows nothing of which reader
 * gave up or why.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection closed after such an answer goes on reading (and discarding) what the client still sends. */
const LINGER_MS = 2000;

/** The stream internals this module steps in: the private flag Node's HTTP parser reads to discard the rest of a body, and the destroy hook. */
interface RequestInternals {
  _dumped: boolean;
  _destroy(error: Error | null, callback: (error?: Error | null) => void): void;
}

/** What the head of a request says of its body: none, one of at most `limit` bytes, or a longer or unknown one. */
export type DeclaredBody = 'none' | 'within' | 'beyond';

/**
 * The body a request declares (RFC 9112 §6.3), from Node's raw header list (reading `headers` would make Node
 * build its header object): `beyond` for a length over `limit`, or an unknown one (chunked).
 */
export function declaredBody(request: IncomingMessage, limit: number): DeclaredBody {
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') return 'beyond';
    if (name.length === 14 && name.toLowerCase() === 'content-length') {
      const length = Number(raw[i + 1]);
      return length === 0 ? 'none' : length <= limit ? 'within' : 'beyond';
    }
  }
  return 'none';
}

/**
 * Makes the answer of a request that carries a body reach its client, whatever was read of the body:
 * - the request stream destroyed before the answer's head is out no longer destroys the socket: the rest of
 *   its body is discarded as it arrives;
 * - when the body is `beyond` the drain limit and has not all arrived when the head goes out, the answer carries
 *   `Connection: close`; once flushed the server half-closes and keeps reading for a while, so that a client still
 *   sending is not reset (which would discard the answer it has not read yet) and reads the answer (lingering
 *   close, as Apache httpd does);
 * - otherwise the rest of the body is read after the answer and the connection serves the next request.
 * Only requests with a body pay for it: a request without one needs none of this.
 */
export function makeAnswerable(request: IncomingMessage, response: ServerResponse, body: DeclaredBody): void {
  const internals = request as unknown as RequestInternals;
  const destroy = internals._destroy;
  internals._destroy = function (error, callback): void {
    const { socket } = request;
    if (response.headersSent || socket.destroyed) return destroy.call(this, error, callback);
    if (!request.complete) {
      internals._dumped = true;
      // Undo a pause the body's backpressure may have put on the socket, so that the rest can be discarded.
      socket.resume();
    }
    // Like Node's own: an error nobody listens to is not raised again.
    callback(request.listenerCount('error') > 0 ? error : null);
  };
  if (body !== 'beyond') return;
  const writeHead = response.writeHead;
  response.writeHead = function (
    this: ServerResponse,
    ...args: Parameters<ServerResponse['writeHead']>
  ): ServerResponse {
    const { socket } = this;
    if (socket && !request.complete) {
      this.setHeader('connection', 'close');
      lingerOnClose(socket);
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
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
