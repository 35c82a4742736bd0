/** Runs a request's clean-ups (`RequestContext.onComplete`) once its response has been sent, or abandoned. */
import type { ServerResponse } from 'node:http';
import { nodeBuiltin } from '../runtime/node-builtins';
import type { Http2ServerResponse } from 'node:http2';
import { logging } from '../logging/logger';
import type { RequestContext } from '../context/request-context';
import type { RequestCleanups } from '../context/request-state';
import { isDenoServeInfo } from '../runtime/deno-serve';
import { nextMacrotask } from '../runtime/timers';

const nodeHttp = () => nodeBuiltin('node:http', 'the Node listener');

const log = logging.getLogger('rxrest.pipeline');

function run(cleanups: RequestCleanups): void {
  cleanups.run().catch((error: unknown) => log.error('A request clean-up failed', error));
}

/** What may end an answer before its body was read to its end (calls `end(reason)`); returns what stops watching. */
type Ending = (end: (reason: unknown) => void) => () => void;

const unwatched = (): void => undefined;

/** A fetch caller's leaving: its request's `signal` aborted. */
function aborted(signal: AbortSignal): Ending {
  return (end) => {
    if (signal.aborted) return (end(signal.reason), unwatched);
    const ended = () => end(signal.reason);
    signal.addEventListener('abort', ended, { once: true });
    return () => signal.removeEventListener('abort', ended);
  };
}

/**
 * Deno giving an answer up: `info.completed` rejected (an HTTP/2 stream reset mid-body). Its resolving ends nothing:
 * Deno then read or cancelled the body, and a handler may hand the same info to `app.fetch` calls of its own, whose
 * bodies may still be read after.
 */
function givenUp(completed: Promise<void>): Ending {
  return (end) => {
    completed.catch((error: unknown) => end(error));
    return unwatched;
  };
}

/**
 * `reader`'s chunks, and `done` called once when read to the end, cancelled, or `ending` ends it (then the source
 * stops and a read fails): a fetch caller leaves so (the REST and MCP clients abort, and only release their reader),
 * and without a connection to lose nothing else would stop the stream or give its slot back.
 */
function watching(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ending: Ending | undefined,
  done: () => void,
): ReadableStream<Uint8Array> {
  let finished = false;
  let unwatch = unwatched;
  // Whether this call finished it (a later end finds it finished, and does nothing).
  const finish = (): boolean => {
    if (finished) return false;
    finished = true;
    unwatch();
    done();
    return true;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (ending) unwatch = ending(stopper(controller, reader, finish));
    },
    async pull(controller) {
      try {
        const next = await reader.read();
        if (finished) return;
        if (!next.done) return controller.enqueue(next.value);
        controller.close();
        finish();
      } catch (error) {
        if (finish()) controller.error(error);
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason);
    },
  });
}

/** What an end besides the reader does to a watched body, once `finish` says it came first: fails it, stops its source. */
function stopper(
  controller: ReadableStreamDefaultController<Uint8Array>,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  finish: () => boolean,
): (reason: unknown) => void {
  return (reason) => {
    if (!finish()) return;
    controller.error(reason);
    reader.cancel(reason).catch(() => undefined);
  };
}

/**
 * Arranges for `ctx.complete()` to run after `response` is sent: on the `close` of a Node response another adapter
 * passed along; at once for a body `whole` in memory or none; else when the body stream ends or is cancelled.
 */
export function completeWhenSent(ctx: RequestContext, response: Response, whole = false): Response {
  if (!ctx.hasCleanups) return response;
  const outgoing = ctx.node?.outgoing;
  if (outgoing) {
    completeWhenNodeSent(ctx, outgoing);
    return response;
  }
  const cleanups = ctx.cleanups;
  // Read only when not whole: on Bun, reading a text body's `body` makes a stream of it.
  const body = whole ? null : response.body;
  if (body === null) {
    nextMacrotask(() => run(cleanups));
    return response;
  }
  const watched = watching(body.getReader(), endingOf(ctx), () => run(cleanups));
  return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * What ends an answer besides its body's reader: on Deno, its delivery given up (its legacy `signal` aborts after
 * every answer once read, and Deno warns); elsewhere the received Web request's signal (a caller in process, a client
 * of Bun or of workerd with `enable_request_signal`: workerd cancels no answer itself).
 */
function endingOf(ctx: RequestContext): Ending | undefined {
  const environment = ctx.environment;
  if (isDenoServeInfo(environment)) return givenUp(environment.completed);
  return ctx.exchange ? undefined : aborted(ctx.receivedRequest.signal);
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
