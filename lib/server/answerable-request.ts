/** Keeps an unread body's connection until its answer is out: Node destroyed it with the request (a 413 was lost). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const LINGER_MS = 2000;

/** `_dumped`: the private flag Node's HTTP parser reads to discard the rest of a body. */
interface RequestInternals {
  _dumped: boolean;
  _destroy(error: Error | null, callback: (error?: Error | null) => void): void;
}

export type DeclaredBody = 'none' | 'within' | 'beyond';

/** RFC 9112 §6.3, from the raw header list (reading `headers` makes Node build its object); chunked is `beyond`. */
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
 * The rest of the body is discarded as it arrives; one `beyond` the drain limit gets `Connection: close` and a
 * lingering close (as Apache httpd does): a client still sending, reset, would discard the answer it has not read.
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
      // Node calls `destroySoon` after the last answer.
      socket.destroySoon = function lingeringClose(this: Socket): void {
        if (!this.writableEnded) endLingering(this);
      };
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/** Half-closes `socket`, destroyed once the client has closed too or `LINGER_MS` later. */
export function endLingering(socket: Socket): void {
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}
