/** The worker lane: bounded concurrency for methods that may block, each started as its own macrotask when needed. */
import { openTelemetry } from '../tracing/open-telemetry';
import { Observable } from 'rxjs/internal/Observable';
import { settleToPromise } from '../context/settle';
import { isPromiseLike, type StageResult } from '../context/stage';
import { nextMacrotask } from '../runtime/timers';

/** With tracing on, the request's span tells how long its call waited for a slot, and behind how many. */
function noteWait(since: number, queued: number): void {
  openTelemetry()
    ?.api.trace.getActiveSpan()
    ?.addEvent('worker lane slot', {
      'rxrest.worker_lane.wait_ms': performance.now() - since,
      'rxrest.worker_lane.queued_before': queued,
    });
}

/**
 * At most `maxConcurrency` worker-lane calls run at once; the others wait in order. A call runs at once when a slot is
 * free and `defer` is false (a request's first handling is already a macrotask of its own); otherwise it starts from
 * `setImmediate`, after the waiting I/O callbacks.
 *
 * @example
 * const lane = new WorkerLane(64);
 * lane.run(() => computeReport(), false);
 */
export class WorkerLane {
  #running = 0;
  readonly #queue: (() => void)[] = [];

  /** framework.rest.worker.max-concurrency, which the settings schema holds to an integer ≥ 1. */
  constructor(readonly maxConcurrency: number) {}

  get waiting(): number {
    return this.#queue.length;
  }

  /** Takes a slot: now (`undefined`) or later (a Promise); call `release()` once the work is settled. */
  enter(defer: boolean): Promise<void> | undefined {
    if (!defer && this.#running < this.maxConcurrency && this.#queue.length === 0) {
      this.#running++;
      return undefined;
    }
    return new Promise<void>((resolve) => {
      if (this.#running < this.maxConcurrency) {
        this.#running++;
        nextMacrotask(resolve);
      } else this.#queue.push(() => nextMacrotask(resolve));
    });
  }

  /** Frees a slot, handing it to the next waiting call if any. */
  release(): void {
    if (this.#queue.length === 0) this.#running--;
    else this.#queue.shift()!();
  }

  /** Runs `task` in a slot, freed when its result settles. */
  run<R>(task: () => StageResult<R>, defer: boolean): StageResult<R> {
    return this.call((work) => work(), task, defer);
  }

  /** `run` for a function of one argument: `task(arg)` in a slot, with no closure made per call. */
  call<A, R>(task: (arg: A) => StageResult<R>, arg: A, defer: boolean): StageResult<R> {
    const queued = this.#queue.length;
    const entered = this.enter(defer);
    if (!entered) return this.#settle(task, arg);
    const since = performance.now();
    return entered.then(() => {
      noteWait(since, queued);
      return this.#settle(task, arg) as R | PromiseLike<R>;
    });
  }

  #settle<A, R>(task: (arg: A) => StageResult<R>, arg: A): StageResult<R> {
    let result: StageResult<R>;
    try {
      result = task(arg);
    } catch (error) {
      this.release();
      throw error;
    }
    if (!isPromiseLike(result) && !(result instanceof Observable)) {
      this.release();
      return result;
    }
    // An Observable answers by its first value, as a pipeline stage's does.
    return Promise.resolve(settleToPromise(result)).finally(() => this.release());
  }
}
