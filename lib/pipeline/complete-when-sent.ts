/** Runs a request's clean-ups (`RequestContext.onComplete`) once its response has been sent, or abandoned. */
import { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import { logging } from '../logging/logger';
import type { RequestCleanups } from './request-cleanups';
import type { RequestContext } from './request-context';

const log = logging.getLogger('rxrest.pipeline');

function run(ctx: RequestContext): void {
  ctx.complete().catch((error: unknown) => log.error('A request clean-up failed', error));
}

function runCleanups(cleanups: RequestCleanups): void {
  cleanups.run().catch((error: unknown) => log.error('A request clean-up failed', error));
}

/** Ends when the body has been read to its end or cancelled (the client went away). */
function watchBody(response: Response, done: () => void): Response {
  const body = response.body;
  if (!body) {
    setImmediate(done);
    return response;
  }
  const reader = body.getReader();
  let finished = false;
  const finish = () => {
    if (!finished) ((finished = true), done());
  };
  const watched = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          controller.close();
          finish();
        } else controller.enqueue(next.value);
      } catch (error) {
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
  return watchBody(response, () => run(ctx));
}

/** Arranges for `ctx.complete()` to run once Node's response is closed: sent, or the connection (or stream) lost. */
export function completeWhenNodeSent(ctx: RequestContext, outgoing: ServerResponse | Http2ServerResponse): void {
  if (!ctx.hasCleanups) return;
  const closed = outgoing instanceof ServerResponse ? outgoing.closed : outgoing.stream.closed;
  // The clean-ups alone wait for the close, not the context: a stream open for hours keeps none of it.
  const cleanups = ctx.cleanups;
  if (closed) setImmediate(() => runCleanups(cleanups));
  else outgoing.once('close', () => runCleanups(cleanups));
}
