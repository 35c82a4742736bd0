/** A stream sink over a Node `ServerResponse`: direct writes, `drain` for backpressure, `close` for disconnects. */
import type { ServerResponse } from 'node:http';
import type { StreamSink } from './stream-sink';

/** The Node response behind a Hono context served by `@hono/node-server` (`c.env.outgoing`), if any. */
export function nodeResponseOf(environment: unknown): ServerResponse | undefined {
  const env = (environment as { env?: { outgoing?: unknown } } | undefined)?.env;
  const outgoing = env?.outgoing as ServerResponse | undefined;
  return outgoing && typeof outgoing.writeHead === 'function' && typeof outgoing.write === 'function' && !outgoing.headersSent ? outgoing : undefined;
}

/** Wraps `response` (headers already written) as a sink. */
export function nodeSink(response: ServerResponse): StreamSink {
  let finished = false;
  return {
    write: (chunk) => response.write(chunk),
    onReady: (callback) => void response.once('drain', callback),
    end() {
      finished = true;
      response.end();
    },
    abort() {
      finished = true;
      response.destroy();
    },
    onClose(callback) {
      if (response.destroyed) return void queueMicrotask(callback);
      response.once('close', () => {
        if (!finished && !response.writableFinished) callback();
      });
    },
  };
}
