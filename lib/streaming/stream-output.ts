/** A stream's items framed (a body, a socket's messages); what pushed sources send ahead held under the budget. */
import { Backlog } from './backlog';
import { FrameWriter, type Frame } from './frame-writer';
import type { SharedFrames } from './shared-frames';
import type { StreamEnd } from './stream-observer';

// Items framed with one call when they wait anyway (a JSON array's burst): about 6 KB of small objects.
const FRAME_BATCH = 512;
// A broadcast tick's text up to this long is written in one go, as a batch of that length would have been.
const TICK_CHARS = 16384;

/** Items pushed while the sink takes no more wait in a backlog; `whenIdle` tells pulled sources when none waits. */
export class StreamOutput extends FrameWriter {
  #items = 0;
  #backlog: Backlog | undefined;
  // Items of a burst that waits anyway (before the commit, or for a slow client), framed together later.
  #unframed: unknown[] | undefined;
  #idle: (() => void)[] | undefined;

  /** The sink takes more and nothing waits for it: an item may be written now. */
  get idle(): boolean {
    return this.ready && (this.#backlog === undefined || this.#backlog.empty) && !this.#unframed?.length;
  }

  /** Bytes pushed sources may still send before the budget (the stream's, or its part of the total) is reached. */
  get room(): number {
    return this.#limit() - this.outstanding - (this.#backlog?.bytes ?? 0);
  }

  /** Writes an item of a pulled source, taken while `idle` (or the first, held until the commit). */
  writeItem(item: unknown): void {
    const frame = this.#frame(item);
    if (frame !== undefined) this.write(this.#join(frame));
  }

  /** Writes `item` when `idle`, else holds it under the budget; throws framing's errors, or a `StreamOverflowError`. */
  push(item: unknown): void {
    if (this.closed) return;
    if (this.idle) return this.writeItem(item);
    // Only under `fail`, where no item is ever dropped, may items wait unframed: the budget is checked per batch.
    if (this.framing.frameMany && this.settings.overflow === 'fail') {
      if ((this.#unframed ??= []).push(item) >= FRAME_BATCH) this.frameWaiting();
      return;
    }
    const frame = this.#frame(item);
    if (frame !== undefined) this.#hold(frame);
  }

  /**
   * Sends a broadcast tick's items, framed once for every stream: while idle their joined text is written at once when
   * it `#fits`; otherwise each frame goes as `push` sends an item. Throws as `push` does.
   */
  pushShared(tick: SharedFrames): void {
    if (this.closed) return;
    const text = this.idle ? tick.textFor(this.framing) : undefined;
    if (text !== undefined && this.#fits(text.length)) {
      const count = tick.items.length;
      this.observer?.items(count);
      const separator = this.framing.separator;
      if (this.#items === 0 || separator === '')
        this.writeNow(text, this.sharesChunks ? tick.bytesFor(this.framing) : undefined);
      else this.writeNow(separator + text);
      this.#items += count;
      return;
    }
    const frames = tick.framesFor(this.framing);
    if (frames === undefined) {
      for (const item of tick.items) this.push(item);
      return;
    }
    // Items that wait unframed go before these.
    this.frameWaiting();
    for (const frame of frames) this.#pushFrame(frame);
  }

  // Under `fail` nothing is dropped: text within the budget may go whole. A drop policy keeps items apart past a batch.
  #fits(length: number): boolean {
    return length <= TICK_CHARS || (this.settings.overflow === 'fail' && length <= this.room);
  }

  /** Frames the items that wait unframed into the backlog, under its budget; throws as `push` does. */
  frameWaiting(): void {
    const unframed = this.#unframed;
    if (!unframed?.length) return;
    this.observer?.items(unframed.length);
    const text = this.framing.frameMany!(unframed);
    unframed.length = 0;
    this.#hold(text);
  }

  /** Calls `callback` once, when the output is `idle` (at once if it is). */
  whenIdle(callback: () => void): void {
    if (this.idle) callback();
    else if (!this.closed) (this.#idle ??= []).push(callback);
  }

  /** Ends the body once everything that waits has been written. */
  endWhenIdle(reason: StreamEnd = 'complete'): void {
    this.whenIdle(() => this.finish(reason));
  }

  /** What waits goes first, then whoever waited for the output to be idle. */
  protected override drained(): void {
    if (this.#writeBacklog(true)) while (this.#idle?.length && this.idle) this.#idle.shift()!();
  }

  protected override writeWaiting(): void {
    this.#writeBacklog(false);
  }

  /** Writes what waits while the sink takes more (`paced`), or all of it; false when framing what waited failed. */
  #writeBacklog(paced: boolean): boolean {
    try {
      this.frameWaiting();
    } catch (error) {
      if (paced) this.fail(error);
      return false;
    }
    const backlog = this.#backlog;
    if (backlog) while ((!paced || this.ready) && !backlog.empty) this.write(backlog.shift()!);
    return true;
  }

  #pushFrame(frame: Frame | undefined): void {
    if (this.closed) return;
    this.observer?.items(1);
    if (frame === undefined) return;
    if (this.idle) this.write(this.#join(frame));
    else this.#hold(frame);
  }

  /** The frame of `item`, counted; `undefined` when the framing sends nothing for it. */
  #frame(item: unknown): Frame | undefined {
    this.observer?.items(1);
    return this.framing.frame(item);
  }

  /** `frame` after its separator (a JSON array's comma); once per written frame, in order. */
  #join(frame: Frame): Frame {
    const separator = this.framing.separator;
    return this.#items++ === 0 || separator === '' || typeof frame !== 'string' ? frame : separator + frame;
  }

  /** Holds `frame` until the socket takes more, under the budget; throws as `push` does. */
  #hold(frame: Frame): void {
    // The socket's count is read once: holding a frame does not change it.
    const outstanding = this.outstanding;
    this.#backlogOf().push(frame, outstanding, this.#limit(outstanding));
    this.recount(outstanding);
  }

  /** The stream's budget, or less while the application's streams hold their total: its count plus the total's room. */
  #limit(outstanding = this.outstanding): number {
    const { bufferSize, heldBytes } = this.settings;
    if (heldBytes === undefined || !this.attached) return bufferSize;
    const part = outstanding + (this.#backlog?.bytes ?? 0) + heldBytes.room(this.counted);
    return part < bufferSize ? part : bufferSize;
  }

  protected override waitingBytes(): number {
    return this.#backlog?.bytes ?? 0;
  }

  #backlogOf(): Backlog {
    const { bufferSize, overflow } = this.settings;
    return (this.#backlog ??= new Backlog(
      bufferSize,
      overflow,
      (frame) => this.#join(frame),
      () => this.observer?.dropped(1),
      this.framing.messages,
    ));
  }
}
