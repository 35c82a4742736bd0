/** A request's worker-lane slot, taken before its first blocking filter and released when its request part ends. */
import type { WorkerLane } from '../execution/worker-lane';
import type { StageFn } from './chain';
import type { RequestContext } from '../context/request-context';
import { always } from '../context/settle';
import type { StageResult } from '../context/stage';
import { ContextKey } from '../context/context-key';

// Request property marking that the request holds a worker-lane slot (taken before its blocking filters).
const WORKER_SLOT = new ContextKey<boolean>('worker-slot');

/** `part` releasing the worker slot a request took (see `takeSlot`) once it settles, or throws. */
export function releasing(worker: WorkerLane, part: StageFn): StageFn {
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

/** The stage that takes a slot (now, or once one is free) and marks the request as holding it. */
export function takeSlot(worker: WorkerLane): StageFn {
  return (ctx) => {
    const entered = worker.enter(false);
    ctx.set(WORKER_SLOT, true);
    return entered ? entered.then(() => ctx) : ctx;
  };
}
