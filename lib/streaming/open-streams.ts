/** The streams an application is writing now, so that a shutdown can end each of them cleanly instead of cutting it. */
import type { StreamEnd } from './stream-observer';
import { unref } from '../runtime/timers';

/** A stream response being written. */
export interface OpenStream {
  /** Whether its client reconnects by itself (SSE: `EventSource` with `Last-Event-ID`). */
  readonly reconnects: boolean;
  /** Ends the body cleanly now: what was produced, `sseFrame` for SSE (a `retry:` hint), the framing's end. */
  endEarly(sseFrame: string, reason: StreamEnd): void;
}

/** How long an SSE client is told to wait before reconnecting (to another instance) when one shuts down. */
const RETRY_FRAME = 'retry:1000\n\n';

/** An application's open streams: at shutdown SSE ends at once with a `retry:` hint, the rest within the grace. */
export class OpenStreams {
  readonly #streams = new Set<OpenStream>();
  #grace: NodeJS.Timeout | undefined;
  #closing = false;

  get size(): number {
    return this.#streams.size;
  }

  add(stream: OpenStream): void {
    if (this.#closing && stream.reconnects) return stream.endEarly(RETRY_FRAME, 'shutdown');
    this.#streams.add(stream);
  }

  delete(stream: OpenStream): void {
    this.#streams.delete(stream);
    if (this.#closing && this.#streams.size === 0) clearTimeout(this.#grace);
  }

  /** Ends reconnecting streams now and the rest after `graceMs` (those still open then). */
  shutdown(graceMs: number): void {
    this.#closing = true;
    for (const stream of [...this.#streams]) if (stream.reconnects) this.#end(stream);
    if (this.#streams.size === 0) return;
    this.#grace = setTimeout(() => {
      for (const stream of [...this.#streams]) this.#end(stream);
    }, graceMs);
    unref(this.#grace);
  }

  #end(stream: OpenStream): void {
    this.#streams.delete(stream);
    stream.endEarly(RETRY_FRAME, 'shutdown');
  }
}
