/** How a pushed stream with much to send at once (missed history) sends what fits its budget, then waits. */
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

/** A Multi whose items `subscribe` makes at the pace of the stream sending it; other subscribers get all at once. */
export function pacedMulti<T>(subscribe: PacedSubscribe<T>): Multi<T> {
  const stream = new Multi(new Observable<T>((subscriber) => subscribe(undefined).subscribe(subscriber)));
  Object.defineProperty(stream, PACED, { value: subscribe });
  return stream;
}

/** How to subscribe to `source` with a pace, when it takes one. */
export function pacedSourceOf(source: Observable<unknown>): PacedSubscribe<unknown> | undefined {
  return (source as { [PACED]?: PacedSubscribe<unknown> })[PACED];
}
