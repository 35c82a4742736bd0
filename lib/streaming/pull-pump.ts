/** Streams an iterator (sync or async): the next item is asked for only while the output is idle. */
import type { StreamOutput } from './stream-output';
import { SourcePump, type PumpEvents } from './source-pump';

type AnyIterator = Iterator<unknown> | AsyncIterator<unknown>;
type Step = IteratorResult<unknown> | Promise<IteratorResult<unknown>>;

function isPromise(step: Step): step is Promise<IteratorResult<unknown>> {
  return typeof (step as { then?: unknown }).then === 'function';
}

/** Pulls and writes until the sink is full, then waits for an idle output (a sync iterator: no microtask an item). */
export class PullPump extends SourcePump {
  readonly #open: () => AnyIterator;
  #iterator: AnyIterator | undefined;
  #running = false;
  #done = false;

  constructor(open: () => AnyIterator, output: StreamOutput, events: PumpEvents) {
    super(output, events);
    this.#open = open;
  }

  start(first: boolean): void {
    try {
      this.#iterator = this.#open();
      if (!first) return this.output.whenIdle(this.#run);
      const step = this.#iterator.next();
      if (!isPromise(step)) return this.#takeFirst(step);
      step.then(
        (taken) => this.#takeFirst(taken),
        (error: unknown) => this.fail(error),
      );
    } catch (error) {
      this.fail(error);
    }
  }

  protected release(): void {
    try {
      const returned = this.#iterator?.return?.();
      if (returned && isPromise(returned)) returned.catch(() => undefined);
    } catch {
      // A generator that is running (it called back into the stream) cannot be returned; it ends with its loop.
    }
  }

  #takeFirst(step: IteratorResult<unknown>): void {
    this.started(step.done ? undefined : step.value);
    this.#take(step);
    if (!this.stopped) this.output.whenIdle(this.#run);
  }

  /** Pulls while the output is idle; called again by it when it is. */
  readonly #run = async (): Promise<void> => {
    if (this.#running) return;
    this.#running = true;
    try {
      while (!this.stopped && this.output.idle) {
        if (this.#done) return this.events.completed();
        const step = this.#iterator!.next();
        this.#take(isPromise(step) ? await step : step);
      }
      if (!this.stopped) this.output.whenIdle(this.#run);
    } catch (error) {
      this.fail(error);
    } finally {
      this.#running = false;
    }
  };

  #take(step: IteratorResult<unknown>): void {
    if (this.stopped) return;
    if (step.done) this.#done = true;
    else this.output.writeItem(step.value);
  }
}
