/** Runs a request's clean-ups (`RequestContext.onComplete`) once its response has been sent, or abandoned. */
import type { ServerResponse } from 'node:http';
import { nodeBuiltin } from '../runtime/node-builtins';
import type { Http2ServerResponse } from 'node:http2';
import { logging } from '../logging/logger';
import type { RequestContext } from '../context/request-context';
import type { RequestCleanups } from '../context/request-state';
import { nextMacrotask } from '../runtime/timers';

const nodeHttp = () => nodeBuiltin('node:http', 'the Node listener');

const log = logging.getLogger('rxrest.pipeline');

function run(cleanups: RequestCleanups): void {
  cleanups.run().catch((error: unknown) => log.error('A request clean-up failed', error));
}

/**
 * Ends when the body has been read to its end, cancelled, or its request's `signal` aborted: a fetch caller leaves so
 * (the REST and MCP clients abort on unsubscribe, and only release their reader), and without a connection to lose
 * nothing else would ever stop the stream or give its slot back. An abort stops the body's source and fails a read.
 */
function watchBody(response: Response, signal: AbortSignal | undefined, done: () => void): Response {
  const body = response.body;
  if (!body) {
    nextMacrotask(done);
    return response;
  }
  const reader = body.getReader();
  let finished = false;
  let aborted: (() => void) | undefined;
  const finish = () => {
    if (finished) return;
    finished = true;
    if (aborted) signal!.removeEventListener('abort', aborted);
    done();
  };
  const watched = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!signal) return;
      aborted = () => {
        finish();
        controller.error(signal.reason);
        reader.cancel(signal.reason).catch(() => undefined);
      };
      if (signal.aborted) aborted();
      else signal.addEventListener('abort', aborted, { once: true });
    },
    async pull(controller) {
      try {
        const next = await reader.read();
        if (finished) return;
        if (next.done) {
          controller.close();
          finish();
        } else controller.enqueue(next.value);
      } catch (error) {
        if (finished) return;
        controller.error(error);
        finish();
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason);
    },
  });
  return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * Arranges for `ctx.complete()` to run after `response` is sent: on the Node response's `close` when another
 * Node adapter passed it along, else when the body stream ends or is cancelled.
 */
export function completeWhenSent(ctx: RequestContext, response: Response): Response {
  if (!ctx.hasCleanups) return response;
  const outgoing = ctx.node?.outgoing;
  if (outgoing) {
    completeWhenNodeSent(ctx, outgoing);
    return response;
  }
  // In process the Web request is the connection: its signal is how its caller leaves.
  const cleanups = ctx.cleanups;
  return watchBody(response, ctx.exchange ? undefined : ctx.request.signal, () => run(cleanups));
}

/** Arranges for `ctx.complete()` to run once Node's response is closed: sent, or the connection (or stream) lost. */
export function completeWhenNodeSent(ctx: RequestContext, outgoing: ServerResponse | Http2ServerResponse): void {
  if (!ctx.hasCleanups) return;
  const closed = outgoing instanceof nodeHttp().ServerResponse ? outgoing.closed : outgoing.stream.closed;
  // The clean-ups alone wait for the close, not the context: a stream open for hours keeps none of its request.
  const cleanups = ctx.cleanups;
  if (closed) setImmediate(() => run(cleanups));
  else outgoing.once('close', () => run(cleanups));
}
