/** The operator every pipeline stage is built from: a function of the request context, sync when it can be. */
import { Observable } from 'rxjs/internal/Observable';
import { from } from 'rxjs/internal/observable/from';
import type { OperatorFunction, ObservableInput, Subscriber, Subscription } from 'rxjs';

/** What a stage function may give back: the value now, later, or as the first value of a stream. */
export type StageResult<R> = R | PromiseLike<R> | Observable<R>;

export function isPromiseLike<R>(value: unknown): value is PromiseLike<R> {
  return typeof (value as PromiseLike<R> | null)?.then === 'function';
}

/** Applies `fn` to each value: a plain result emitted in the same tick, a later one once there; errors travel on. */
export function stage<T, R>(
  fn: (value: T) => StageResult<R>,
  isSync: (result: StageResult<R>) => result is R = defaultIsSync,
): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) => {
      let pending = 0;
      let sourceDone = false;
      let inner: Subscription | undefined;
      const settle = () => {
        pending--;
        if (sourceDone && pending === 0) subscriber.complete();
      };
      const outer = source.subscribe({
        next(value) {
          let result: StageResult<R>;
          try {
            result = fn(value);
          } catch (error) {
            return subscriber.error(error);
          }
          if (isSync(result)) return subscriber.next(result);
          pending++;
          const later = emitLater(result as PromiseLike<R> | Observable<R>, subscriber, settle);
          if (later) inner = later;
        },
        error: (error: unknown) => subscriber.error(error),
        complete() {
          sourceDone = true;
          if (pending === 0) subscriber.complete();
        },
      });
      return () => {
        outer.unsubscribe();
        inner?.unsubscribe();
      };
    });
}

/** Emits a Promise's value or an Observable's first (then unsubscribed), and settles; an empty Observable fails. */
function emitLater<R>(
  result: PromiseLike<R> | Observable<R>,
  subscriber: Subscriber<R>,
  settle: () => void,
): Subscription | undefined {
  if (isPromiseLike<R>(result)) {
    result.then(
      (resolved) => {
        subscriber.next(resolved);
        settle();
      },
      (error: unknown) => subscriber.error(error),
    );
    return undefined;
  }
  let emitted = false;
  let inner: Subscription | undefined;
  inner = from(result as ObservableInput<R>).subscribe({
    next(first) {
      if (emitted) return;
      emitted = true;
      subscriber.next(first);
      inner?.unsubscribe();
      settle();
    },
    error: (error: unknown) => subscriber.error(error),
    complete() {
      if (!emitted) subscriber.error(new EmptyStageError());
    },
  });
  if (emitted) inner.unsubscribe();
  return inner;
}

function defaultIsSync<R>(result: StageResult<R>): result is R {
  return !(result instanceof Observable) && !isPromiseLike(result);
}

export class EmptyStageError extends Error {
  constructor() {
    super('The stage completed without a value');
    this.name = 'EmptyStageError';
  }
}
