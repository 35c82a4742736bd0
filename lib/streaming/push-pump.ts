/** Streams an Observable: it cannot be paused, so what it emits ahead of the client waits in the output's backlog. */
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber, Subscription } from 'rxjs';
import type { StreamOutput } from './stream-output';
import { SourcePump, type PumpEvents } from './source-pump';
import { pacedSourceOf, type StreamPace } from './stream-pace';

/**
 * Items go to the output, which writes them while the sink takes more and otherwise holds them under the byte budget
 * (the overflow policy past it). A finite source that fits the budget always streams completely.
 */
export class PushPump extends SourcePump implements StreamPace {
  readonly #source: Observable<unknown>;
  #subscriber: Subscriber<unknown> | undefined;
  #subscription: Subscription | undefined;

  constructor(source: Observable<unknown>, output: StreamOutput, events: PumpEvents) {
    super(output, events);
    this.#source = source;
  }

  start(): void {
    const source = this.#source;
    const paced = pacedSourceOf(source);
    const subscribed = paced ? paced(this) : source;
    // Subscribed through a Subscriber of our own, so that an overflow can stop a synchronous source mid-burst.
    const own = new Observable<unknown>((subscriber) => {
      this.#subscriber = subscriber;
      return subscribed.subscribe(subscriber);
    });
    this.#subscription = own.subscribe({
      next: (item) => this.#accept(item),
      error: (error: unknown) => this.fail(error),
      complete: () => {
        this.started();
        this.events.completed();
      },
    });
    if (this.stopped) this.#subscription.unsubscribe();
    else this.#frameBurst();
  }

  protected release(): void {
    this.#subscriber?.unsubscribe();
    this.#subscription?.unsubscribe();
  }

  #accept(item: unknown): void {
    if (this.stopped) return;
    try {
      this.output.push(item);
    } catch (error) {
      return this.fail(error);
    }
    this.started(item);
  }

  /** Frames what a synchronous burst left unframed; a failure (an overflow, an item JSON cannot hold) fails the pump. */
  #frameBurst(): void {
    try {
      this.output.frameWaiting();
    } catch (error) {
      this.fail(error);
    }
  }

  /** The room left under the budget: the pace a paced source goes at. */
  get room(): number {
    return this.output.room;
  }

  /** Calls `next` once what waits has gone out, in a later turn (once this one's writes are flushed). */
  whenDrained(next: () => void): void {
    this.output.whenIdle(() =>
      setTimeout(() => {
        if (!this.stopped) next();
      }, 0),
    );
  }
}
