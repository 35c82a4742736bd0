/** What a stream tells whoever watches it (a tracing span): its start, its items and bytes, and how it ended. */

/** How a stream ended: all sent; client left; past its budget; source failed; a shutdown; its credential expired. */
export type StreamEnd = 'complete' | 'client-gone' | 'overflow' | 'error' | 'shutdown' | 'expired';

export interface StreamObserver {
  opened(): void;
  items(count: number): void;
  /** `count` framed items were dropped by the overflow policy: they will never be sent. */
  dropped(count: number): void;
  /** `chunk` was written (text as it is written, the watcher counting its UTF-8 bytes if it wants them). */
  wrote(chunk: string | Uint8Array): void;
  closed(reason: StreamEnd): void;
}
