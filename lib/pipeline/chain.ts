/** Fuses consecutive stage functions into one, staying synchronous for as long as each stage is. */
import { Observable, from, switchMap, take, type MonoTypeOperatorFunction, type OperatorFunction, pipe, identity } from 'rxjs';
import { RequestContext } from './request-context';
import { stage, type StageResult } from './stage';

export type StageFn = (ctx: RequestContext) => StageResult<RequestContext>;

function toObservable(result: StageResult<RequestContext>): Observable<RequestContext> {
  if (result instanceof RequestContext) return new Observable((subscriber) => (subscriber.next(result), subscriber.complete()));
  return from(result as PromiseLike<RequestContext> | Observable<RequestContext>);
}

function settle(result: StageResult<RequestContext>): RequestContext | PromiseLike<RequestContext> {
  if (!(result instanceof Observable)) return result;
  return new Promise((resolve, reject) => {
    let done = false;
    result.pipe(take(1)).subscribe({
      next: (value) => ((done = true), resolve(value)),
      error: reject,
      complete: () => done || reject(new Error('A pipeline stage completed without answering')),
    });
  });
}

/** One stage function running `stages` in order; a stage that answers later suspends the rest until it does. */
export function chain(stages: readonly StageFn[]): StageFn {
  if (stages.length === 1) return stages[0];
  const run = (ctx: RequestContext, from$: number): StageResult<RequestContext> => {
    for (let i = from$; i < stages.length; i++) {
      const result = stages[i](ctx);
      if (result instanceof RequestContext) {
        ctx = result;
        continue;
      }
      const rest = (next: RequestContext) => run(next, i + 1);
      if (result instanceof Observable) return result.pipe(take(1), switchMap((next) => toObservable(rest(next))));
      // A later stage may answer with an Observable: settle it too, so the chain yields a context, never a stream.
      return Promise.resolve(result).then((next) => settle(rest(next)));
    }
    return ctx;
  };
  return (ctx) => run(ctx, 0);
}

/** A pipeline step: a stage function, or a user's own RxJS operator. */
export type Step = StageFn | { readonly operator: MonoTypeOperatorFunction<RequestContext> };

/** Compiles steps into one operator, fusing runs of stage functions so synchronous work stays synchronous. */
export function compileSteps(steps: readonly Step[]): MonoTypeOperatorFunction<RequestContext> {
  const operators: OperatorFunction<RequestContext, RequestContext>[] = [];
  let run: StageFn[] = [];
  const flush = () => {
    if (run.length) operators.push(stage(chain(run), isContext));
    run = [];
  };
  for (const step of steps) {
    if (typeof step === 'function') run.push(step);
    else {
      flush();
      operators.push(step.operator);
    }
  }
  flush();
  if (operators.length === 0) return identity;
  return (pipe as (...ops: OperatorFunction<RequestContext, RequestContext>[]) => MonoTypeOperatorFunction<RequestContext>)(...operators);
}

function isContext(result: StageResult<RequestContext>): result is RequestContext {
  return result instanceof RequestContext;
}

/** The value `result` settles to, as an Observable (for `catchError`). */
export { toObservable };
