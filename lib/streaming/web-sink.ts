/** A stream sink feeding a Web `ReadableStream` (in-process `fetch`, and servers other than node-server). */
import type { StreamSink } from './stream-sink';

const encoder = new TextEncoder();
/** Bytes the stream holds before its reader's pace holds the sink back. */
const HIGH_WATER_MARK = 16384;

/** What the stream and its sink share. */
interface Channel {
  controller: ReadableStreamDefaultController<Uint8Array>;
  ready: (() => void) | undefined;
  closed: (() => void) | undefined;
  done: boolean;
}

/** A `ReadableStream` of bytes and the sink that fills it; the reader's pace is the backpressure. */
export function webSink() {
  const channel: Channel = { controller: undefined!, ready: undefined, closed: undefined, done: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (controller) => void (channel.controller = controller),
      pull() {
        const callback = channel.ready;
        channel.ready = undefined;
        callback?.();
      },
      cancel() {
        if (channel.done) return;
        channel.done = true;
        channel.closed?.();
      },
    },
    { highWaterMark: HIGH_WATER_MARK, size: (chunk) => chunk.byteLength },
  );
  return { stream, sink: sinkOf(channel) };
}

/** The sink writing to `channel`'s stream. */
function sinkOf(channel: Channel): StreamSink {
  const { controller } = channel;
  return {
    write(chunk) {
      if (channel.done) return true;
      controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      return (controller.desiredSize ?? 0) > 0;
    },
    onReady: (callback) => void (channel.ready = callback),
    buffered: () => HIGH_WATER_MARK - (controller.desiredSize ?? HIGH_WATER_MARK),
    end() {
      if (channel.done) return;
      channel.done = true;
      controller.close();
    },
    abort() {
      if (channel.done) return;
      channel.done = true;
      controller.error(new Error('The stream failed after its response was committed'));
    },
    onClose: (callback) => void (channel.closed = callback),
  };
}
