/** The bytes side of a stream's output: batches frames into writes, follows the sink's backpressure, ends or fails the body. */
import type { StreamEnd, StreamObserver } from './stream-observer';
import { StreamOverflowError, type OverflowPolicy } from './backlog';
import type { Framing } from './framing';
import { Heartbeat, type Beating } from './heartbeat';
import type { HeldBytes } from './held-bytes';
import type { StreamSink } from './stream-sink';
import type { TickFlush, TickFlushed } from './tick-flush';
import { nextMacrotask } from '../runtime/timers';

export type Frame = string | Uint8Array;

/** Whoever runs an output, told first when it closes (one object an idle stream holds, not a callback and its closure). */
export interface OutputOwner {
  outputClosed(): void;
}

/** The budget, the overflow policy and the keep-alive period of one output. */
export interface OutputSettings {
  /** Bytes of framed output pushed sources may get ahead of the client before the overflow policy applies. */
  readonly bufferSize: number;
  readonly overflow: OverflowPolicy;
  /** Milliseconds between SSE keep-alive comments; 0 disables them. */
  readonly keepAliveMs: number;
  /** The application's timer of those comments (every `keepAliveMs`), shared by its streams; absent: the stream's own. */
  readonly heartbeat?: Heartbeat;
  /** The application's end-of-tick flush, shared by its streams; absent: each stream schedules its own. */
  readonly ticks?: TickFlush;
  /** The bytes all the application's streams hold, under `framework.rest.stream.total-buffer-size`; absent: unbounded. */
  readonly heldBytes?: HeldBytes;
}

// Items written in the same tick are joined into writes of about this many characters.
const BATCH_CHARS = 16384;
const KEEP_ALIVE = ':\n\n';

/**
 * Writes one stream's frames. Text waits in a batch until it is 16 KB long or the tick ends, so a burst of small
 * items costs a few writes, not one each (a framing of messages writes each frame alone). Before `attach` (the
 * response is not committed yet) writes are held; afterwards `ready` says whether the sink takes more, and `drained`
 * is called when it does again. `StreamOutput` adds the items and what waits for the client.
 */
export class FrameWriter implements Beating, TickFlushed {
  protected readonly framing: Framing;
  protected readonly settings: OutputSettings;
  protected readonly observer: StreamObserver | undefined;
  readonly #onError: (error: unknown) => void;
  #sink: StreamSink | undefined;
  #held: Frame[] | undefined;
  #heldBytes = 0;
  #batch: string;
  #waiting = false;
  #flushScheduled = false;
  #wrote = false;
  #closed = false;
  #keepAlive: Heartbeat | undefined;
  #onClosed: (() => void)[] | undefined;
  /** Told of the close before the `whenClosed` callbacks. */
  owner: OutputOwner | undefined;
  /** How the stream ended, once something decided it (else its client left). */
  #end: StreamEnd | undefined;
  /** The bytes this stream has in the application's total (see `recount`). */
  protected counted = 0;

  constructor(
    framing: Framing,
    settings: OutputSettings,
    onError: (error: unknown) => void,
    observer?: StreamObserver,
  ) {
    this.framing = framing;
    this.settings = settings;
    this.#onError = onError;
    this.#batch = framing.start;
    this.observer = observer;
  }

  get mediaType(): string {
    return this.framing.mediaType;
  }

  get attached(): boolean {
    return this.#sink !== undefined;
  }

  /** Whether the client reconnects by itself when the stream ends (SSE). */
  get reconnects(): boolean {
    return this.framing.keepAlive;
  }

  /** Starts writing to `sink`: what was held goes out first, then `drained` is called whenever it takes more. */
  attach(sink: StreamSink, onClose: () => void): void {
    this.#sink = sink;
    sink.onClose(onClose);
    this.observer?.opened();
    if (this.#closed) return;
    this.settings.heldBytes?.join();
    const { keepAliveMs, heartbeat } = this.settings;
    if (this.framing.keepAlive && keepAliveMs > 0) {
      this.#keepAlive = heartbeat ?? new Heartbeat(keepAliveMs);
      this.#keepAlive.join(this);
    }
    const held = this.#held ?? [];
    this.#held = undefined;
    this.#heldBytes = 0;
    for (const chunk of held) this.#put(chunk);
    this.#flush();
    if (!this.#wrote) sink.open();
    if (!this.#waiting) this.drained();
  }

  /** A failure after commit: logged; SSE ends with an `error` event after what waits, other framings are truncated. */
  fail(error: unknown): void {
    if (this.#closed) return;
    this.#onError(error);
    this.#end = error instanceof StreamOverflowError ? 'overflow' : 'error';
    const errorFrame = this.framing.errorFrame;
    if (errorFrame === undefined) {
      this.#flush();
      this.close();
      return this.#sink!.abort();
    }
    // SSE clients get the events that came before the error.
    this.writeWaiting();
    this.write(errorFrame);
    this.finish();
  }

  /** Calls `callback` once, when the stream is over (ended, failed or cancelled). */
  whenClosed(callback: () => void): void {
    if (this.#closed) callback();
    // An array of one to start with: `[]` then push() reserves room for 17 (about 150 bytes an idle stream keeps).
    else if (this.#onClosed) this.#onClosed.push(callback);
    else this.#onClosed = [callback];
  }

  /** Ends the body cleanly at once (a shutdown, an expired credential): what waits, `sseFrame` for SSE clients, the framing's end. */
  endEarly(sseFrame: string, reason: StreamEnd): void {
    if (this.#closed || !this.#sink) return;
    this.#end = reason;
    this.writeWaiting();
    if (this.framing.keepAlive) this.write(sseFrame);
    this.finish();
  }

  /** Writes nothing more (the stream ended, or the client is gone). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#keepAlive?.leave(this);
    this.#keepAlive = undefined;
    this.owner?.outputClosed();
    if (this.#sink) this.#release(this.#sink);
    const closed = this.#onClosed ?? [];
    this.#onClosed = undefined;
    for (const callback of closed) callback();
    this.observer?.closed(this.#end ?? 'client-gone');
  }

  /** A keep-alive comment in each period in which nothing else was written. */
  beat(): void {
    if (!this.#wrote && !this.#waiting && !this.#closed) this.#sink!.write(KEEP_ALIVE);
    this.#wrote = false;
  }

  /** The sink is attached and takes more. */
  protected get ready(): boolean {
    return this.#sink !== undefined && !this.#waiting && !this.#closed;
  }

  protected get closed(): boolean {
    return this.#closed;
  }

  /** Output written but not yet taken by the client: the batch, held chunks and the sink's buffers. */
  protected get outstanding(): number {
    return this.#batch.length + this.#heldBytes + (this.#sink === undefined ? 0 : this.#sink.buffered());
  }

  protected write(chunk: Frame): void {
    if (typeof chunk !== 'string' || this.framing.messages) {
      this.#flush();
      return this.#put(chunk);
    }
    this.#batch += chunk;
    if (this.#batch.length >= BATCH_CHARS) this.#flush();
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      const ticks = this.settings.ticks;
      if (ticks) ticks.schedule(this);
      else nextMacrotask(() => this.flushTick());
    }
  }

  /**
   * Writes text at once, after what the batch holds: called at the end of a tick already (a broadcast's). `bytes`,
   * the same text encoded once for every stream, go instead when the sink may share them and nothing is batched.
   */
  protected writeNow(text: string, bytes?: Uint8Array): void {
    if (bytes !== undefined && this.#batch === '' && this.#sink?.sharesChunks) return this.#put(bytes);
    this.#batch += text;
    this.#flush();
  }

  /** Whether `writeNow` takes shared bytes now: the sink may share them (so they are worth making). */
  protected get sharesChunks(): boolean {
    return this.#sink?.sharesChunks === true;
  }

  /** The end of the tick in which text was batched: it goes out, unless the sink is full (then once it drains). */
  flushTick(): void {
    this.#flushScheduled = false;
    if (!this.#waiting) this.#flush();
  }

  /**
   * Brings this stream's count in the application's total up to date: what waits for the socket, and what the socket
   * holds once it takes no more (below its high-water mark it is the connection's working buffer, and it drains
   * without telling). Called where that changes other than by a write the socket took: a frame held, the socket full,
   * the socket drained. `outstanding`: `this.outstanding`, when the caller has just read it.
   */
  protected recount(outstanding?: number): void {
    const held = this.settings.heldBytes;
    if (held && this.#sink && !this.#closed)
      this.counted = held.move(
        this.counted,
        (this.ready ? 0 : (outstanding ?? this.outstanding)) + this.waitingBytes(),
      );
  }

  /** Bytes of framed output waiting for the socket (none here: `StreamOutput` holds them). */
  protected waitingBytes(): number {
    return 0;
  }

  /** The stream is over: its bytes leave the total, those still in its socket once the connection lets them go. */
  #release(sink: StreamSink): void {
    const held = this.settings.heldBytes;
    if (!held) return;
    const left = sink.buffered();
    if (left <= 0 || !sink.whenGone) return held.leave(this.counted);
    const counted = held.move(this.counted, left);
    sink.whenGone(() => held.leave(counted));
  }

  /** Writes the rest and the framing's end, and ends the body. */
  protected finish(reason: StreamEnd = 'complete'): void {
    if (this.#closed) return;
    const tail = this.#batch + this.framing.end;
    this.#batch = '';
    if (tail !== '') this.#put(tail);
    this.#end ??= reason;
    this.close();
    this.#sink!.end();
  }

  /** The sink takes more (and did not before, or was just attached). */
  protected drained(): void {}

  /** Writes what waits for the client, whether or not the sink takes more: the stream ends now. */
  protected writeWaiting(): void {}

  #flush(): void {
    if (this.#batch === '') return;
    const chunk = this.#batch;
    this.#batch = '';
    this.#put(chunk);
  }

  #put(chunk: Frame): void {
    if (this.#closed) return;
    const sink = this.#sink;
    if (sink === undefined) {
      (this.#held ??= []).push(chunk);
      this.#heldBytes += chunk.length;
      return;
    }
    this.#wrote = true;
    this.observer?.wrote(chunk);
    if (sink.write(chunk) || this.#waiting) return;
    this.#waiting = true;
    this.recount();
    sink.onReady(() => this.#readyAgain());
  }

  #readyAgain(): void {
    this.#waiting = false;
    // The batch is older than anything written next.
    this.#flush();
    if (!this.#waiting && !this.#closed) this.drained();
    this.recount();
  }
}
