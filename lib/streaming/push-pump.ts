/** Streams an Observable: it cannot be paused, so what it emits ahead of the client waits in the output's backlog. */
import type { Observable, Observer } from 'rxjs';
import { SafeSubscriber } from 'rxjs/internal/Subscriber';
import type { StreamOutput } from './stream-output';
import { SourcePump, type PumpEvents } from './source-pump';
import { pacedSourceOf, type StreamPace } from './stream-pace';
import type { SharedFrames } from './shared-frames';

/**
 * RxJS keeps a subscriber's teardowns in an array made by `[]` and `push()`, which reserves room for 17 (about 150
 * bytes an idle stream would keep): the usual one (its source's) is kept in an array of one instead. Only the array's
 * size changes; a version of RxJS keeping them otherwise is left alone.
 */
function compactFinalizers(subscriber: SafeSubscriber<unknown>): void {
  const held = subscriber as unknown as { _finalizers?: unknown[] | null };
  if (held._finalizers?.length === 1) held._finalizers = [held._finalizers[0]];
}

/**
 * Items go to the output, which writes them while the sink takes more and otherwise holds them under the byte budget
 * (the overflow policy past it). A finite source that fits the budget always streams completely.
 */
export class PushPump extends SourcePump implements StreamPace, Observer<unknown> {
  /** Until subscribed: the source, its operators and closures are then held by the subscription alone. */
  #source: Observable<unknown> | undefined;
  #subscriber: SafeSubscriber<unknown> | undefined;

  constructor(source: Observable<unknown>, output: StreamOutput, events: PumpEvents) {
    super(output, events);
    this.#source = source;
  }

  start(): void {
    // A Subscriber of our own, held before subscribing, so that an overflow can stop a synchronous source mid-burst;
    // the pump is its observer (three closures per idle stream fewer).
    const source = this.#source;
    if (source === undefined) return;
    this.#source = undefined;
    const subscriber = (this.#subscriber = new SafeSubscriber(this));
    const paced = pacedSourceOf(source);
    (paced ? paced(this) : source).subscribe(subscriber);
    compactFinalizers(subscriber);
    if (!this.stopped) this.#frameBurst();
  }

  /** The source's item (the pump observes its source itself). */
  next(item: unknown): void {
    this.#accept(item);
  }

  error(error: unknown): void {
    this.fail(error);
  }

  complete(): void {
    this.started();
    this.events.completed();
  }

  protected release(): void {
    this.#subscriber?.unsubscribe();
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

  /** A broadcast tick for this stream, framed once for every stream it goes to: as `next` for each item, in one call. */
  takeShared(tick: SharedFrames): void {
    if (this.stopped) return;
    try {
      this.output.pushShared(tick);
    } catch (error) {
      return this.fail(error);
    }
    this.started(tick.items[0]);
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
