/** Streams an Observable: it cannot be paused, so what it emits ahead of the client waits in the output's backlog. */
import type { Observable, Observer } from 'rxjs';
import { SafeSubscriber } from 'rxjs/internal/Subscriber';
import type { StreamOutput } from './stream-output';
import { SourcePump, type PumpEvents } from './source-pump';
import { pacedSourceOf, type StreamPace } from './stream-pace';
import type { SharedFrames } from './shared-frames';

/**
 * RxJS keeps a subscriber's teardowns in an array that reserves room for 17 (about 150 bytes an idle stream keeps):
 * the usual one is kept in an array of one instead (an RxJS keeping them otherwise is left alone).
 */
function compactFinalizers(subscriber: SafeSubscriber<unknown>): void {
  const held = subscriber as unknown as { _finalizers?: unknown[] | null };
  if (held._finalizers?.length === 1) held._finalizers = [held._finalizers[0]];
}

/** Items go to the output, written or held under the budget; a finite source within the budget streams completely. */
export class PushPump extends SourcePump implements StreamPace, Observer<unknown> {
  /** Until subscribed: the source, its operators and closures are then held by the subscription alone. */
  #source: Observable<unknown> | undefined;
  #subscriber: SafeSubscriber<unknown> | undefined;

  constructor(source: Observable<unknown>, output: StreamOutput, events: PumpEvents) {
    super(output, events);
    this.#source = source;
  }

  start(): void {
    // Our own Subscriber, held before subscribing, so an overflow can stop a synchronous source mid-burst; the pump is
    // its observer (three closures per idle stream fewer).
    const source = this.#source;
    if (source === undefined) return;
    this.#source = undefined;
    const subscriber = (this.#subscriber = new SafeSubscriber(this));
    const paced = pacedSourceOf(source);
    (paced ? paced(this) : source).subscribe(subscriber);
    compactFinalizers(subscriber);
    if (this.stopped) return;
    // What a synchronous burst left unframed: a failure (an overflow, an item JSON cannot hold) fails the pump.
    try {
      this.output.frameWaiting();
    } catch (error) {
      this.fail(error);
    }
  }

  next(item: unknown): void {
    if (this.stopped) return;
    try {
      this.output.push(item);
    } catch (error) {
      return this.fail(error);
    }
    this.started(item);
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

  /** A broadcast tick, framed once for every stream it goes to: as `next` for each item, in one call. */
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
