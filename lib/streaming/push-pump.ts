/** Streams an Observable: it cannot be paused, so what it emits ahead of the client waits, framed, under a byte budget. */
import type { StreamEnd } from './stream-observer';
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber, Subscription } from 'rxjs';
import { Backlog } from './backlog';
import type { FrameWriter } from './frame-writer';
import type { StreamSink } from './stream-sink';
import { streamHeaderOf } from './stream-header';
import type { StreamPump, StreamSettings } from './stream-pump';
import { track, type OpenStreams } from './open-streams';
import { pacedSourceOf, type StreamPace } from './stream-pace';

// Items framed with one call when they wait anyway (a JSON array's burst): about 6 KB of small objects.
const FRAME_BATCH = 512;

/**
 * Items go straight to the writer while the sink takes more; otherwise (before commit, or while the
 * client is slow) into the backlog, which applies the overflow policy past the budget. A finite source
 * that fits the budget always streams completely.
 */
export class PushPump implements StreamPump {
  readonly #source: Observable<unknown>;
  readonly #output: FrameWriter;
  readonly #backlog: Backlog;
  readonly #eager: boolean;
  readonly #streams: OpenStreams | undefined;
  readonly #budget: number;
  /** What a paced source asked to be told once all it sent has gone out. */
  #whenDrained: (() => void) | undefined;
  #subscriber: Subscriber<unknown> | undefined;
  #subscription: Subscription | undefined;
  #started = false;
  #done = false;
  #closed = false;
  #failure: { readonly error: unknown } | undefined;
  #header: readonly [string, string] | undefined;
  #primed: { resolve(): void; reject(error: unknown): void } | undefined;
  // Items of a burst that waits anyway (before the commit, or for a slow client), framed together later.
  readonly #unframed: unknown[] | undefined;

  constructor(source: Observable<unknown>, output: FrameWriter, settings: StreamSettings, eager: boolean) {
    this.#source = source;
    this.#output = output;
    this.#eager = eager;
    this.#streams = settings.openStreams;
    this.#budget = settings.bufferSize;
    this.#backlog = new Backlog(
      settings.bufferSize,
      settings.overflow,
      (frame) => output.join(frame),
      () => output.dropped(),
    );
    // Only under `fail`, where no item is ever dropped, may items wait unframed: the budget is checked per batch.
    this.#unframed = settings.overflow === 'fail' && output.framesMany ? [] : undefined;
  }

  get mediaType(): string {
    return this.#output.mediaType;
  }

  get header(): readonly [string, string] | undefined {
    return this.#header;
  }

  prime(): Promise<void> | undefined {
    // Subscribed through a Subscriber of our own, so that an overflow can stop a synchronous source mid-burst.
    const paced = pacedSourceOf(this.#source);
    const source = paced ? paced(this.#pace()) : this.#source;
    const own = new Observable<unknown>((subscriber) => {
      this.#subscriber = subscriber;
      return source.subscribe(subscriber);
    });
    this.#subscription = own.subscribe({
      next: (item) => this.#accept(item),
      error: (error: unknown) => this.#fail(error),
      complete: () => this.#complete(),
    });
    if (this.#closed) this.#subscription.unsubscribe();
    else this.#frameBurst();
    // Nothing is written before the commit: a failure up to here answers with a real status.
    if (this.#failure) throw this.#failure.error;
    if (this.#started || this.#eager) return undefined;
    return new Promise<void>((resolve, reject) => (this.#primed = { resolve, reject }));
  }

  attach(sink: StreamSink): void {
    this.#output.attach(
      sink,
      () => this.#resume(),
      () => this.cancel(),
    );
    if (this.#failure) return this.#finishWithError(this.#failure.error);
    track(this, this.#output, this.#streams);
  }

  get reconnects(): boolean {
    return this.#output.reconnects;
  }

  whenClosed(callback: () => void): void {
    this.#output.whenClosed(callback);
  }

  endEarly(sseFrame: string, reason: StreamEnd): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    if (this.#frameBurst()) while (!this.#backlog.empty) this.#output.write(this.#backlog.shift()!);
    this.#output.endEarly(sseFrame, reason);
  }

  cancel(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#output.close();
    this.#unsubscribe();
  }

  #accept(item: unknown): void {
    if (this.#closed) return;
    const unframed = this.#unframed;
    try {
      if (this.#output.ready && this.#backlog.empty && !unframed?.length)
        this.#output.write(this.#output.join(this.#output.frame(item)));
      else if (unframed === undefined) this.#backlog.push(this.#output.frame(item), this.#output.outstanding);
      else if (unframed.push(item) >= FRAME_BATCH) this.#frameWaiting();
    } catch (error) {
      return this.#fail(error);
    }
    if (!this.#started) {
      this.#header = streamHeaderOf(item);
      this.#start();
    }
  }

  /** Frames what waits unframed; false when that failed the stream (an overflow, an item JSON cannot hold). */
  #frameBurst(): boolean {
    try {
      this.#frameWaiting();
      return true;
    } catch (error) {
      this.#fail(error);
      return false;
    }
  }

  /** Frames the items that wait unframed into the backlog, under its budget. */
  #frameWaiting(): void {
    const unframed = this.#unframed;
    if (!unframed?.length) return;
    const text = this.#output.frameMany(unframed);
    unframed.length = 0;
    this.#backlog.push(text, this.#output.outstanding);
  }

  #complete(): void {
    this.#done = true;
    if (!this.#started) this.#start();
    if (this.#output.ready) this.#resume();
  }

  #start(): void {
    this.#started = true;
    this.#primed?.resolve();
  }

  /** The sink takes more: write what waits, then end when the source has. */
  #resume(): void {
    if (!this.#frameBurst()) return;
    while (this.#output.ready && !this.#backlog.empty) this.#output.write(this.#backlog.shift()!);
    if (this.#output.ready && this.#done && this.#backlog.empty) this.#output.end();
    else this.#tellDrained();
  }

  /** The pace a paced source goes at: the room left under the budget, and word once what waits has gone out. */
  #pace(): StreamPace {
    const pump = this;
    return {
      get room() {
        return pump.#budget - pump.#output.outstanding - pump.#backlog.bytes;
      },
      whenDrained(next) {
        pump.#whenDrained = next;
        pump.#tellDrained();
      },
    };
  }

  /** Tells a paced source, in a later turn (once this one's writes are flushed), that all it sent has gone out. */
  #tellDrained(): void {
    const next = this.#whenDrained;
    if (!next || this.#closed || !this.#output.ready || !this.#backlog.empty || this.#unframed?.length) return;
    this.#whenDrained = undefined;
    setTimeout(() => {
      if (!this.#closed) next();
    }, 0);
  }

  /** A source error or an overflow: before the commit it goes to the exception mappers, after it ends the stream. */
  #fail(error: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    if (!this.#output.attached && this.#primed && !this.#started) return this.#primed.reject(error);
    this.#failure = { error };
    if (this.#output.attached) this.#finishWithError(error);
  }

  #finishWithError(error: unknown): void {
    // SSE clients get the events that came before the error; other framings are cut short anyway.
    if (this.#output.reportsErrors) while (!this.#backlog.empty) this.#output.write(this.#backlog.shift()!);
    this.#output.fail(error);
  }

  #unsubscribe(): void {
    this.#subscriber?.unsubscribe();
    this.#subscription?.unsubscribe();
  }
}
