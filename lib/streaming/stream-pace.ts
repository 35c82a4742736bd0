/**
 * How a pushed stream with a lot to send at once (a broadcast subscriber's missed history) goes at its client's pace:
 * it sends what fits the budget, then waits until that has gone out. A `pacedMulti` is handed the pace of the stream
 * that sends it; anything else that subscribes (`.pipe(...)`) gets everything at once.
 */
import { Observable } from 'rxjs/internal/Observable';
import { Multi } from './multi';
import type { SharedFrames } from './shared-frames';

export interface StreamPace {
  /** Bytes the source may still send before the stream's budget is reached. */
  readonly room: number;
  /** Calls `next` once, soon after all that was sent has been written and the client takes more. */
  whenDrained(next: () => void): void;
  /** Takes a broadcast tick's items at once, framed once for all its streams; the subscription still ends it. */
  takeShared?(tick: SharedFrames): void;
}

const PACED: unique symbol = Symbol.for('rxrest.multi.paced') as never;

type PacedSubscribe<T> = (pace: StreamPace | undefined) => Observable<T>;

/** A Multi whose items `subscribe` makes, at the pace of the stream that sends it when there is one. */
export function pacedMulti<T>(subscribe: PacedSubscribe<T>): Multi<T> {
  const stream = new Multi(new Observable<T>((subscriber) => subscribe(undefined).subscribe(subscriber)));
  Object.defineProperty(stream, PACED, { value: subscribe });
  return stream;
}

/** How to subscribe to `source` with a pace, when it takes one. */
export function pacedSourceOf(source: Observable<unknown>): PacedSubscribe<unknown> | undefined {
  return (source as { [PACED]?: PacedSubscribe<unknown> })[PACED];
}
