/** What a stream tells whoever watches it (a tracing span): its start, its items and bytes, and how it ended. */

/** How a stream ended: all of it; its client left; past its budget; its source failed; a shutdown; its credential expired. */
export type StreamEnd = 'complete' | 'client-gone' | 'overflow' | 'error' | 'shutdown' | 'expired';

export interface StreamObserver {
  /** The head is out: the stream begins. */
  opened(): void;
  /** `count` more items were framed. */
  items(count: number): void;
  /** `count` framed items were dropped by the overflow policy: they will never be sent. */
  dropped(count: number): void;
  /** `size` more bytes (characters of text) were written. */
  wrote(size: number): void;
  /** The stream is over. */
  closed(reason: StreamEnd): void;
}
