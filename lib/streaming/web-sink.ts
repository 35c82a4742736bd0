/** A stream sink feeding a Web `ReadableStream` (in-process `fetch`, and servers other than node-server). */
import type { StreamSink } from './stream-sink';

const encoder = new TextEncoder();
/** Bytes the stream holds before its reader's pace holds the sink back. */
const HIGH_WATER_MARK = 16384;

/** A `ReadableStream` of bytes and the sink that fills it; the reader's pace is the backpressure. */
export function webSink(): {
  readonly stream: ReadableStream<Uint8Array>;
  readonly sink: StreamSink;
} {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ready: (() => void) | undefined;
  let closed: (() => void) | undefined;
  let done = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      pull() {
        const callback = ready;
        ready = undefined;
        callback?.();
      },
      cancel() {
        if (done) return;
        done = true;
        closed?.();
      },
    },
    { highWaterMark: HIGH_WATER_MARK, size: (chunk) => chunk.byteLength },
  );
  const sink: StreamSink = {
    write(chunk) {
      if (done) return true;
      controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      return (controller.desiredSize ?? 0) > 0;
    },
    onReady: (callback) => void (ready = callback),
    buffered: () => HIGH_WATER_MARK - (controller.desiredSize ?? HIGH_WATER_MARK),
    // The Response carrying the stream is handed out at once; there is no head to send early.
    open: () => undefined,
    end() {
      if (done) return;
      done = true;
      controller.close();
    },
    abort() {
      if (done) return;
      done = true;
      controller.error(new Error('The stream failed after its response was committed'));
    },
    onClose: (callback) => void (closed = callback),
  };
  return { stream, sink };
}
