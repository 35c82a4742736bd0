/** Streams an Observable: it cannot be paused, so what it emits ahead of the client waits, framed, under a byte budget. */
import { Observable, type Subscriber, type Subscription } from 'rxjs';
import { Backlog } from './backlog';
import type { FrameWriter } from './frame-writer';
import type { StreamSink } from './stream-sink';
import type { StreamPump, StreamSettings } from './stream-pump';

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
  #subscriber: Subscriber<unknown> | undefined;
  #subscription: Subscription | undefined;
  #started = false;
  #done = false;
  #closed = false;
  #failure: { readonly error: unknown } | undefined;
  #primed: { resolve(): void; reject(error: unknown): void } | undefined;

  constructor(source: Observable<unknown>, output: FrameWriter, settings: StreamSettings, eager: boolean) {
    this.#source = source;
    this.#output = output;
    this.#eager = eager;
    this.#backlog = new Backlog(settings.bufferSize, settings.overflow, (frame) => output.join(frame));
  }

  get mediaType(): string {
    return this.#output.mediaType;
  }

  prime(): Promise<void> | undefined {
    // Subscribed through a Subscriber of our own, so that an overflow can stop a synchronous source mid-burst.
    const own = new Observable<unknown>((subscriber) => {
      this.#subscriber = subscriber;
      return this.#source.subscribe(subscriber);
    });
    this.#subscription = own.subscribe({
      next: (item) => this.#accept(item),
      error: (error: unknown) => this.#fail(error),
      complete: () => this.#complete(),
    });
    if (this.#closed) this.#subscription.unsubscribe();
    // Nothing is written before the commit: a failure up to here answers with a real status.
    if (this.#failure) throw this.#failure.error;
    if (this.#started || this.#eager) return undefined;
    return new Promise<void>((resolve, reject) => (this.#primed = { resolve, reject }));
  }

  attach(sink: StreamSink): void {
    this.#output.attach(sink, () => this.#resume(), () => this.cancel());
    if (this.#failure) this.#finishWithError(this.#failure.error);
  }

  cancel(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#output.close();
    this.#unsubscribe();
  }

  #accept(item: unknown): void {
    if (this.#closed) return;
    try {
      const frame = this.#output.frame(item);
      if (this.#output.ready && this.#backlog.empty) this.#output.write(this.#output.join(frame));
      else this.#backlog.push(frame, this.#output.outstanding);
    } catch (error) {
      return this.#fail(error);
    }
    if (!this.#started) this.#start();
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
    while (this.#output.ready && !this.#backlog.empty) this.#output.write(this.#backlog.shift()!);
    if (this.#output.ready && this.#done && this.#backlog.empty) this.#output.end();
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
