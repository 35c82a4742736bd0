/** Places the request filters and the invoke step in the endpoint's lane (execution lanes: docs/streaming.md). */
import type { WorkerLane } from '../execution/worker-lane';
import type { Tags } from '../metadata/store';
import type { StageFn, Step } from './chain';
import { requestSteps, type CompiledFilter } from './filters';
import type { Lane, RequestContext } from '../context/request-context';
import { always } from '../context/settle';
import type { StageResult } from '../context/stage';
import { ContextKey } from '../context/context-key';

/** Whether the request holds a worker-lane slot (taken before its blocking filters). */
const WORKER_SLOT = new ContextKey<boolean>('worker-slot');

/** `part` releasing the worker slot a request took once it settles, or throws. */
function releasing(worker: WorkerLane, part: StageFn): StageFn {
  const release = (ctx: RequestContext) => {
    if (ctx.get(WORKER_SLOT) !== true) return;
    ctx.set(WORKER_SLOT, false);
    worker.release();
  };
  return (ctx): StageResult<RequestContext> => {
    try {
      return always(part(ctx), () => release(ctx));
    } catch (error) {
      release(ctx);
      throw error;
    }
  };
}

/** Takes a slot (now, or once one is free) and marks the request as holding it. */
function takeSlot(worker: WorkerLane): StageFn {
  return (ctx) => {
    const entered = worker.enter(false);
    ctx.set(WORKER_SLOT, true);
    return entered ? entered.then(() => ctx) : ctx;
  };
}

export interface LaneSettings {
  readonly worker: WorkerLane;
  readonly blockedWarningMs: number;
  readonly application?: Tags;
}

/**
 * The request filters and the invoke step, in their lanes: in the worker lane a slot is taken before the first filter
 * without `nonBlocking` (`wrap` releases it when the request part ends), or around the call alone.
 */
export function laneSteps(
  filters: readonly CompiledFilter[],
  invoke: StageFn,
  before: readonly Step[],
  lane: Lane,
  lanes: LaneSettings | undefined,
  readsBody: boolean,
): { readonly steps: Step[]; readonly wrap?: (part: StageFn) => StageFn } {
  const worker = lane === 'worker' ? lanes?.worker : undefined;
  if (!worker) return { steps: [...requestSteps(filters), ...before, invoke] };
  const firstBlocking = filters.findIndex((filter) => !filter.nonBlocking);
  if (firstBlocking < 0)
    return { steps: [...requestSteps(filters), ...before, (ctx) => worker.call(invoke, ctx, readsBody)] };
  const enter = takeSlot(worker);
  return {
    steps: [
      ...requestSteps(filters.slice(0, firstBlocking)),
      enter,
      ...requestSteps(filters.slice(firstBlocking)),
      ...before,
      invoke,
    ],
    wrap: (part) => releasing(worker, part),
  };
}
