/** Places the request filters and the invoke step in the endpoint's lane (execution lanes: docs/streaming.md). */
import type { WorkerLane } from '../execution/worker-lane';
import type { Tags } from '../metadata/store';
import type { StageFn, Step } from '../pipeline/chain';
import type { CompiledFilter } from '../pipeline/filters';
import type { Lane } from '../context/request-context';
import { releasing, takeSlot } from '../pipeline/worker-slot';
import { requestSteps } from './compile-filters';

export interface LaneSettings {
  readonly worker: WorkerLane;
  readonly blockedWarningMs: number;
  readonly application?: Tags;
}

export interface LanePlan {
  readonly steps: Step[];
  /** Wraps the compiled request part so a worker slot taken by a step is released once it settles. */
  readonly wrap?: (part: StageFn) => StageFn;
}

/**
 * The request filters and the invoke step, in their lanes: in the worker lane a slot is taken before the
 * first filter without `nonBlocking` (and released when the request part ends), or around the call alone.
 */
export function laneSteps(
  filters: readonly CompiledFilter[],
  invoke: StageFn,
  before: readonly Step[],
  lane: Lane,
  lanes: LaneSettings | undefined,
  readsBody: boolean,
): LanePlan {
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
