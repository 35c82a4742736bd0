/** Where the request body is read from: Node's untouched `IncomingMessage`, or the Web body, watched. */
import type { Readable } from 'node:stream';
import { isNodeInstance, nodeBuiltin } from '../runtime/node-builtins';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import type { RequestContext } from '../context/request-context';

const nodeStream = () => nodeBuiltin('node:stream', 'multipart forms');

function isUntouchedNodeRequest(value: unknown): value is Readable {
  // Never one where the runtime has no node:stream (a Worker): asking must not need the module.
  if (!isNodeInstance(value, 'node:stream', 'Readable')) return false;
  const stream = value as Readable;
  // Anyone who started reading (a Web body made from it, a filter) owns it now.
  return (
    !stream.readableDidRead &&
    !stream.readableEnded &&
    !stream.destroyed &&
    stream.listenerCount('data') === 0 &&
    stream.listenerCount('readable') === 0
  );
}

/**
 * The raw Node request behind `ctx` while it gives the same bytes as `ctx.request.body` (not replaced, unread): it
 * skips the Node → Web → Node round trip, a third of the throughput. The caller reads it: the body counts as taken.
 */
export function nodeRequestOf(ctx: RequestContext): Readable | undefined {
  const taken = ctx.takeNodeBody();
  if (taken) return taken;
  // Served by another Node adapter that passed its request and response along (`@hono/node-server`).
  const incoming = ctx.node?.incoming;
  if (!ctx.isOriginalRequest || ctx.request.bodyUsed || !isUntouchedNodeRequest(incoming)) return undefined;
  return incoming;
}

/** The body to parse, `null` when the request has none. */
export function bodySource(ctx: RequestContext): Readable | null {
  const incoming = nodeRequestOf(ctx);
  if (incoming) return incoming;
  const body = webBodyOf(ctx);
  return body ? nodeStream().Readable.fromWeb(body as unknown as NodeWebStream<Uint8Array>) : null;
}

/**
 * The Web body of `ctx`'s request; the runtime's own (unread, off Node) is watched: a failed read means its client
 * left (Deno and workerd abort `request.signal` only once they answer) and marks `ctx`: a 499 logged at DEBUG.
 */
export function webBodyOf(ctx: RequestContext): ReadableStream<Uint8Array> | null {
  const request = ctx.request;
  const body = request.body;
  if (!body || ctx.node !== undefined || !ctx.isOriginalRequest || request.bodyUsed || body.locked) return body;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const read = await reader.read().catch((error: unknown) => {
          ctx.bodyLost();
          throw error;
        });
        if (read.done) controller.close();
        else controller.enqueue(read.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
