/** What a stream response's engine is and takes: its settings and the pump every kind of source is moved by. */
import type { OverflowPolicy } from './backlog';
import type { StreamSink } from './stream-sink';
import type { OpenStream, OpenStreams } from './open-streams';

/** Per-stream settings (`framework.rest.stream.*`, `framework.rest.sse.keep-alive`, or per endpoint). */
export interface StreamSettings {
  /** Bytes of framed output an Observable may get ahead of its client before the overflow policy applies. */
  readonly bufferSize: number;
  readonly overflow: OverflowPolicy;
  /** Milliseconds between SSE keep-alive comments; 0 disables them. */
  readonly keepAliveMs: number;
  /** The application's open streams, which a shutdown ends cleanly (absent: not tracked). */
  readonly openStreams?: OpenStreams;
}

/**
 * One stream response. `prime()` starts the source and settles once the response may be committed:
 * with the first item or the end, or at once for SSE (its head goes out before any event, so that
 * `EventSource.onopen` fires and proxies see an answer). An error before that is thrown or rejected for
 * the exception mappers. `attach()` then writes to the sink; `cancel()` stops the source.
 */
export interface StreamPump extends OpenStream {
  readonly mediaType: string;
  /** The response header the first item asked for (see `withStreamHeader`), known once primed. */
  readonly header: readonly [string, string] | undefined;
  prime(): Promise<void> | undefined;
  attach(sink: StreamSink): void;
  cancel(): void;
  /** Calls `callback` once the stream is over (ended, failed or cancelled). */
  whenClosed(callback: () => void): void;
}
