/** Fuses consecutive stage functions into one, staying synchronous for as long as each stage is. */
import { pipe } from 'rxjs/internal/util/pipe';
import type { MonoTypeOperatorFunction, OperatorFunction } from 'rxjs';
import { RequestContext } from '../context/request-context';
import { then, toObservable, type StageFn } from '../context/settle';
import { stage, type StageResult } from '../context/stage';

export { toObservable, type StageFn };

/** One stage function running `stages` in order; a stage that answers later suspends the rest until it does. */
export function chain(stages: readonly StageFn[]): StageFn {
  if (stages.length === 1) return stages[0];
  const run = (ctx: RequestContext, from: number): StageResult<RequestContext> => {
    for (let i = from; i < stages.length; i++) {
      const result = stages[i](ctx);
      if (!(result instanceof RequestContext)) return then(result, (next) => run(next, i + 1));
      ctx = result;
    }
    return ctx;
  };
  return (ctx) => run(ctx, 0);
}

/** The hooks `inOrder` joins: the features' `finish` and `complete`, of one to three arguments. */
type Hook<A extends HookArgs> = (...args: A) => void;
type HookArgs = [unknown] | [unknown, unknown] | [unknown, unknown, unknown];

/** Every hook of one kind, called in order; `undefined` when there is none. */
export function inOrder<A extends HookArgs>(hooks: readonly (Hook<A> | undefined)[]): Hook<A> | undefined {
  const present = hooks.filter((hook) => hook !== undefined) as ((a: unknown, b?: unknown, c?: unknown) => void)[];
  if (present.length <= 1) return present[0];
  // Run on every request: the arguments are passed as they are, with no rest array or closure made per call.
  const joined = (a: unknown, b?: unknown, c?: unknown): void => {
    for (let i = 0; i < present.length; i++) present[i](a, b, c);
  };
  return joined as unknown as Hook<A>;
}

/** A pipeline step: a stage function, or a user's own RxJS operator. */
export type Step = StageFn | { readonly operator: MonoTypeOperatorFunction<RequestContext> };

/** One stage function of `steps`: with operator steps, RxJS operators over the request (runs of functions fused). */
export function compileStage(steps: readonly Step[]): StageFn | undefined {
  if (steps.length === 0) return undefined;
  if (steps.every((step): step is StageFn => typeof step === 'function')) return chain(steps);
  const operators: OperatorFunction<RequestContext, RequestContext>[] = [];
  let run: StageFn[] = [];
  const flush = () => {
    if (run.length) operators.push(stage(chain(run), (result) => result instanceof RequestContext));
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
  const operator = (
    pipe as (...ops: OperatorFunction<RequestContext, RequestContext>[]) => MonoTypeOperatorFunction<RequestContext>
  )(...operators);
  return (ctx) => operator(toObservable(ctx));
}
