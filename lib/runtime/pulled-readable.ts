/** A Node `Readable` as a Web `ReadableStream`, read in paused mode only when the Web reader asks. */
import type { Readable } from 'node:stream';

/**
 * `readable` read only for a pending `read()`, destroyed when cancelled. Not `Readable.toWeb`: Deno's goes on emitting
 * after its reader cancelled, then throws out of the `data` listener, ending the process (a gzip bomb refused did so).
 */
export function pulledReadable(readable: Readable): ReadableStream<Uint8Array> {
  // An error between two reads is not thrown out of the emitter: the next read finds it in `errored`.
  readable.on('error', () => undefined);
  return new ReadableStream<Uint8Array>(
    { pull: (controller) => readNext(readable, controller), cancel: () => void readable.destroy() },
    { highWaterMark: 0 },
  );
}

const CLOSED_EARLY = 'The stream closed before its end';

/** Enqueues the next chunk of `readable`, or closes `controller` at its end; rejects if it fails or closes early. */
function readNext(readable: Readable, controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
  if (readable.errored) return Promise.reject(readable.errored);
  // Destroyed without an error before this read: no 'close' is coming any more.
  if (readable.destroyed && !readable.readableEnded) return Promise.reject(new Error(CLOSED_EARLY));
  return new Promise<void>((resolve, reject) => {
    const settle = (): void => {
      readable.off('readable', next);
      readable.off('end', end);
      readable.off('error', fail);
      readable.off('close', closed);
    };
    function next(): void {
      const chunk = readable.read() as Uint8Array | null;
      if (chunk === null) return void (readable.readableEnded && end());
      settle();
      controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      resolve();
    }
    function end(): void {
      settle();
      controller.close();
      resolve();
    }
    function fail(error: Error): void {
      settle();
      reject(error);
    }
    function closed(): void {
      if (!readable.readableEnded) fail(readable.errored ?? new Error(CLOSED_EARLY));
    }
    readable.on('readable', next);
    readable.once('end', end);
    readable.once('error', fail);
    readable.once('close', closed);
    next();
  });
}
