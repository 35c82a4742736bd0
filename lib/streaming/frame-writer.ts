/** The output side of a stream: joins framed items, batches them into writes, follows the sink's backpressure, ends or fails the body. */
import { interval } from 'rxjs/internal/observable/interval';
import type { Subscription } from 'rxjs';
import type { StreamEnd, StreamObserver } from './stream-observer';
import { StreamOverflowError } from './backlog';
import type { Framing } from './framing';
import type { StreamSink } from './stream-sink';

type Frame = string | Uint8Array;

// Items written in the same tick are joined into writes of about this many characters.
const BATCH_CHARS = 16384;
const KEEP_ALIVE = ':\n\n';

/**
 * Writes one stream's frames. Text waits in a batch until it is 16 KB long or the tick ends, so a burst
 * of small items costs a few writes, not one each. Before `attach` (the response is not committed yet)
 * writes are held; afterwards `ready` says whether the sink takes more, and `onReady` (given to
 * `attach`) is called when it does again. The pumps decide what to write; this class knows no source.
 */
export class FrameWriter {
  readonly #framing: Framing;
  readonly #keepAliveMs: number;
  readonly #onError: (error: unknown) => void;
  #sink: StreamSink | undefined;
  #held: Frame[] = [];
  #heldBytes = 0;
  #batch: string;
  #items = 0;
  #waiting = false;
  #flushScheduled = false;
  #wrote = false;
  #closed = false;
  #keepAlive: Subscription | undefined;
  #onReady: () => void = () => undefined;
  #onClosed: (() => void)[] = [];
  readonly #observer: StreamObserver | undefined;
  /** How the stream ended, once something decided it (else its client left). */
  #end: StreamEnd | undefined;

  constructor(framing: Framing, keepAliveMs: number, onError: (error: unknown) => void, observer?: StreamObserver) {
    this.#framing = framing;
    this.#keepAliveMs = keepAliveMs;
    this.#onError = onError;
    this.#batch = framing.start;
    this.#observer = observer;
  }

  get mediaType(): string {
    return this.#framing.mediaType;
  }

  get attached(): boolean {
    return this.#sink !== undefined;
  }

  /** The sink is attached and takes more. */
  get ready(): boolean {
    return this.#sink !== undefined && !this.#waiting && !this.#closed;
  }

  /** Output written but not yet taken by the client: the batch, held chunks and the sink's buffers. */
  get outstanding(): number {
    return this.#batch.length + this.#heldBytes + (this.#sink === undefined ? 0 : this.#sink.buffered());
  }

  /** Whether a failure after commit is told to the client in the stream (SSE's `error` event) rather than by a truncated body. */
  get reportsErrors(): boolean {
    return this.#framing.errorFrame !== undefined;
  }

  frame(item: unknown): Frame {
    this.#observer?.items(1);
    return this.#framing.frame(item);
  }

  /** One framed item was dropped by the overflow policy (the watcher of the stream counts it apart). */
  dropped(): void {
    this.#observer?.dropped(1);
  }

  /** Whether `frameMany` is cheaper than framing items one by one. */
  get framesMany(): boolean {
    return this.#framing.frameMany !== undefined;
  }

  /** The frames of `items` joined by the separator, to be joined to the output like one frame; only when `framesMany`. */
  frameMany(items: unknown[]): string {
    this.#observer?.items(items.length);
    return this.#framing.frameMany!(items);
  }

  /** `frame` with what goes before it in the output (a JSON array's comma); call once per written frame, in order. */
  join(frame: Frame): Frame {
    const separator = this.#framing.separator;
    return this.#items++ === 0 || separator === '' || typeof frame !== 'string' ? frame : separator + frame;
  }

  /** Starts writing to `sink`: what was held goes out first, then `onReady` is called whenever it takes more. */
  attach(sink: StreamSink, onReady: () => void, onClose: () => void): void {
    this.#sink = sink;
    this.#onReady = onReady;
    sink.onClose(onClose);
    this.#observer?.opened();
    if (this.#closed) return;
    if (this.#framing.keepAlive && this.#keepAliveMs > 0) this.#startKeepAlive(this.#keepAliveMs);
    const held = this.#held;
    this.#held = [];
    this.#heldBytes = 0;
    for (const chunk of held) this.#put(chunk);
    this.flush();
    if (!this.#wrote) sink.open();
    if (!this.#waiting) onReady();
  }

  write(chunk: Frame): void {
    if (typeof chunk !== 'string') {
      this.flush();
      return this.#put(chunk);
    }
    this.#batch += chunk;
    if (this.#batch.length >= BATCH_CHARS) this.flush();
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flushScheduled = false;
        if (!this.#waiting) this.flush();
      });
    }
  }

  flush(): void {
    if (this.#batch === '') return;
    const chunk = this.#batch;
    this.#batch = '';
    this.#put(chunk);
  }

  /** Writes the rest and the framing's end, and ends the body. */
  end(): void {
    if (this.#closed) return;
    const tail = this.#batch + this.#framing.end;
    this.#batch = '';
    if (tail !== '') this.#put(tail);
    this.#end ??= 'complete';
    this.close();
    this.#sink!.end();
  }

  /** A failure after commit: logged; SSE ends with an `error` event after what was written, other framings are truncated. */
  fail(error: unknown): void {
    if (this.#closed) return;
    this.#onError(error);
    this.#end = error instanceof StreamOverflowError ? 'overflow' : 'error';
    const errorFrame = this.#framing.errorFrame;
    if (errorFrame === undefined) {
      this.flush();
      this.close();
      return this.#sink!.abort();
    }
    this.write(errorFrame);
    this.end();
  }

  /** Whether the client reconnects by itself when the stream ends (SSE). */
  get reconnects(): boolean {
    return this.#framing.keepAlive;
  }

  /** Calls `callback` once, when the stream is over (ended, failed or cancelled). */
  whenClosed(callback: () => void): void {
    if (this.#closed) callback();
    else this.#onClosed.push(callback);
  }

  /** Ends the body cleanly at once (a shutdown, an expired credential): what waits, `sseFrame` for SSE clients, the framing's end. */
  endEarly(sseFrame: string, reason: StreamEnd): void {
    if (this.#closed || !this.#sink) return;
    this.#end = reason;
    if (this.#framing.keepAlive) this.write(sseFrame);
    this.end();
  }

  /** Writes nothing more (the stream ended, or the client is gone). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#keepAlive?.unsubscribe();
    this.#keepAlive = undefined;
    const closed = this.#onClosed;
    this.#onClosed = [];
    for (const callback of closed) callback();
    this.#observer?.closed(this.#end ?? 'client-gone');
  }

  #put(chunk: Frame): void {
    if (this.#closed) return;
    const sink = this.#sink;
    if (sink === undefined) {
      this.#held.push(chunk);
      this.#heldBytes += chunk.length;
      return;
    }
    this.#wrote = true;
    this.#observer?.wrote(chunk.length);
    if (sink.write(chunk) || this.#waiting) return;
    this.#waiting = true;
    sink.onReady(this.#drained);
  }

  readonly #drained = (): void => {
    this.#waiting = false;
    // The batch is older than anything the pump writes next.
    this.flush();
    if (!this.#waiting && !this.#closed) this.#onReady();
  };

  /** A comment every `period` ms in which nothing else was written; an RxJS timer so marble tests can drive it. */
  #startKeepAlive(period: number): void {
    this.#keepAlive = interval(period).subscribe(() => {
      if (!this.#wrote && !this.#waiting && !this.#closed) this.#sink!.write(KEEP_ALIVE);
      this.#wrote = false;
    });
  }
}
