/** A stream sink over a Node `ServerResponse`: direct writes, `drain` for backpressure, `close` for disconnects. */
import type { ServerResponse } from 'node:http';
import type { RequestContext } from '../context/request-context';
import type { StreamSink } from './stream-sink';

/** The Node response of a request served on Node (`listen()`, or `@hono/node-server`), while nothing has been written to it. */
export function nodeResponseOf(ctx: RequestContext): ServerResponse | undefined {
  const outgoing = ctx.node?.outgoing;
  return outgoing && !outgoing.headersSent ? outgoing : undefined;
}

/** Wraps `response` (headers already written) as a sink. */
export function nodeSink(response: ServerResponse): StreamSink {
  let finished = false;
  return {
    write: (chunk) => response.write(chunk),
    onReady: (callback) => void response.once('drain', callback),
    // The response's own buffer plus its socket's: what the client has not taken yet.
    buffered: () => response.writableLength,
    open: () => response.flushHeaders(),
    end() {
      finished = true;
      response.end();
    },
    abort() {
      finished = true;
      // Destroying at once would discard what is still queued (at worst the head and every item), and the
      // client would read nothing at all; ending the socket after its queue leaves the chunked body unterminated.
      const socket = response.socket;
      if (socket && !socket.destroyed) socket.destroySoon();
      else response.destroy();
    },
    onClose(callback) {
      if (response.destroyed) return void queueMicrotask(callback);
      response.once('close', () => {
        if (!finished && !response.writableFinished) callback();
      });
    },
  };
}
