/**
 * Where the request body is read from: as a Node stream for the multipart parser (the raw `IncomingMessage` when served
 * by `@hono/node-server` and nothing has touched the body, else the Web body adapted), and the Web body itself, whose
 * failed reads tell of a client that left.
 */
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
 * The raw Node request behind `ctx`, when reading it directly gives the same bytes as `ctx.request.body`:
 * the request is still the one the server received (no filter replaced it, e.g. to inflate gzip) and unread.
 * Reading it directly skips the Node → Web → Node stream round trip, which costs a third of the throughput.
 * The caller reads it: the context counts the body as taken.
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
 * The Web body of the request of `ctx`. The runtime's own (the request as it came, unread, off Node) is watched: a read
 * that fails means its client left in the middle of it (Deno, workerd fail the read at once but abort
 * `request.signal` only once they answer), and marks `ctx` so, which makes the error it causes a 499 logged at DEBUG.
 * A body the application read before fails for its own fault, and stays an error.
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
