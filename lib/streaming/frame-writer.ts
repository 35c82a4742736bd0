/** The bytes side of a stream's output: frames batched into writes, the sink's backpressure, the body's end. */
import type { StreamEnd, StreamObserver } from './stream-observer';
import { StreamOverflowError, type OverflowPolicy } from './backlog';
import type { Framing } from './framing';
import { Heartbeat, type Beating } from './heartbeat';
import type { HeldBytes } from './held-bytes';
import type { StreamSink } from './stream-sink';
import type { TickFlush, TickFlushed } from './tick-flush';
import { nextMacrotask } from '../runtime/timers';

export type Frame = string | Uint8Array;

/** Whoever runs an output, told first when it closes (an object, not a closure an idle stream would hold). */
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
  /** The application's timer of those comments, shared by its streams; absent: the stream's own. */
  readonly heartbeat?: Heartbeat;
  /** The application's end-of-tick flush, shared by its streams; absent: each stream schedules its own. */
  readonly ticks?: TickFlush;
  /** The bytes the application's streams hold (`framework.rest.stream.total-buffer-size`); absent: unbounded. */
  readonly heldBytes?: HeldBytes;
}

// Items written in the same tick are joined into writes of about this many characters.
const BATCH_CHARS = 16384;
const KEEP_ALIVE = ':\n\n';

/**
 * Writes one stream's frames, text batched until 16 KB or the tick's end (messages go alone). Writes before `attach`
 * (the commit) are held; then `ready` says whether the sink takes more, and `drained` when it does again.
 */
export abstract class FrameWriter implements Beating, TickFlushed {
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
    protected readonly framing: Framing,
    protected readonly settings: OutputSettings,
    onError: (error: unknown) => void,
    protected readonly observer?: StreamObserver,
  ) {
    this.#onError = onError;
    this.#batch = framing.start;
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

  attach(sink: StreamSink, onClose: () => void): void {
    this.#sink = sink;
    sink.onClose?.(onClose);
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
    if (!this.#wrote) sink.open?.();
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
      const sink = this.#sink!;
      return sink.abort ? sink.abort() : sink.end();
    }
    // SSE clients get the events that came before the error.
    this.writeWaiting();
    this.write(errorFrame);
    this.finish();
  }

  /** Calls `callback` once, when the stream is over (ended, failed or cancelled). */
  whenClosed(callback: () => void): void {
    if (this.#closed) callback();
    // An array of one: `[]` then push() reserves room for 17 (about 150 bytes an idle stream keeps).
    else if (this.#onClosed) this.#onClosed.push(callback);
    else this.#onClosed = [callback];
  }

  /** Ends the body cleanly now (a shutdown, an expired credential): what waits, `sseFrame` for SSE, the end. */
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

  /** Writes text now after the batch (a tick's end); `bytes`, encoded once for all, instead if the sink shares them. */
  protected writeNow(text: string, bytes?: Uint8Array): void {
    if (bytes !== undefined && this.#batch === '' && this.#sink?.sharesChunks) return this.#put(bytes);
    this.#batch += text;
    this.#flush();
  }

  /** Whether the sink may share bytes (so they are worth making for `writeNow`). */
  protected get sharesChunks(): boolean {
    return this.#sink?.sharesChunks === true;
  }

  /** The end of the tick in which text was batched: it goes out, unless the sink is full (then once it drains). */
  flushTick(): void {
    this.#flushScheduled = false;
    if (!this.#waiting) this.#flush();
  }

  /**
   * Updates this stream's count in the total: what waits, plus what the socket holds once full (below its mark it is
   * the connection's working buffer, draining untold). Called when a frame is held, the socket fills or drains.
   */
  protected recount(outstanding?: number): void {
    const held = this.settings.heldBytes;
    if (!held || !this.#sink || this.#closed) return;
    const untaken = this.ready ? 0 : (outstanding ?? this.outstanding);
    this.counted = held.move(this.counted, untaken + this.waitingBytes());
  }

  /** Bytes of framed output waiting for the socket (`StreamOutput` holds them). */
  protected abstract waitingBytes(): number;

  /** The stream is over: its bytes leave the total, those still in its socket once the connection lets them go. */
  #release(sink: StreamSink): void {
    const held = this.settings.heldBytes;
    if (!held) return;
    const left = sink.buffered();
    if (left <= 0 || !sink.whenGone) return held.leave(this.counted);
    const counted = held.move(this.counted, left);
    sink.whenGone(() => held.leave(counted));
  }

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
  protected abstract drained(): void;

  /** Writes what waits for the client, whether or not the sink takes more: the stream ends now. */
  protected abstract writeWaiting(): void;

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
