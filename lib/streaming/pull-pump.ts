/** Streams an iterator (sync or async): the next item is asked for only while the sink takes more. */
import type { StreamEnd } from './stream-observer';
import type { FrameWriter } from './frame-writer';
import type { StreamSink } from './stream-sink';
import { streamHeaderOf } from './stream-header';
import type { StreamPump } from './stream-pump';
import { track, type OpenStreams } from './open-streams';

type AnyIterator = Iterator<unknown> | AsyncIterator<unknown>;
type Step = IteratorResult<unknown> | Promise<IteratorResult<unknown>>;

function isPromise(step: Step): step is Promise<IteratorResult<unknown>> {
  return typeof (step as { then?: unknown }).then === 'function';
}

/**
 * Real backpressure: the loop pulls, frames and writes until the sink is full, then waits for it to
 * drain. A synchronous iterator runs without a microtask per item; an async one awaits each step.
 * Memory stays flat whatever the size, and a client that goes away returns the iterator at once.
 */
export class PullPump implements StreamPump {
  readonly #open: () => AnyIterator;
  readonly #output: FrameWriter;
  readonly #eager: boolean;
  readonly #streams: OpenStreams | undefined;
  #iterator: AnyIterator | undefined;
  #running = false;
  #done = false;
  #closed = false;
  #header: readonly [string, string] | undefined;

  constructor(open: () => AnyIterator, output: FrameWriter, eager: boolean, streams?: OpenStreams) {
    this.#open = open;
    this.#output = output;
    this.#eager = eager;
    this.#streams = streams;
  }

  get mediaType(): string {
    return this.#output.mediaType;
  }

  get header(): readonly [string, string] | undefined {
    return this.#header;
  }

  prime(): Promise<void> | undefined {
    this.#iterator = this.#open();
    if (this.#eager) return undefined;
    const step = this.#iterator.next();
    if (!isPromise(step)) return void this.#takeFirst(step);
    return step.then((first) => this.#takeFirst(first));
  }

  #takeFirst(step: IteratorResult<unknown>): void {
    if (!step.done) this.#header = streamHeaderOf(step.value);
    this.#take(step);
  }

  attach(sink: StreamSink): void {
    this.#output.attach(
      sink,
      () => void this.#run(),
      () => this.cancel(),
    );
    track(this, this.#output, this.#streams);
  }

  get reconnects(): boolean {
    return this.#output.reconnects;
  }

  whenClosed(callback: () => void): void {
    this.#output.whenClosed(callback);
  }

  endEarly(sseFrame: string, reason: StreamEnd): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#return();
    this.#output.endEarly(sseFrame, reason);
  }

  cancel(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#output.close();
    this.#return();
  }

  /** Pulls while the sink takes more; started again by the writer when it drains. */
  async #run(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      while (!this.#closed && this.#output.ready) {
        if (this.#done) return this.#output.end();
        const step = this.#iterator!.next();
        this.#take(isPromise(step) ? await step : step);
      }
    } catch (error) {
      if (this.#closed) return;
      this.#closed = true;
      this.#output.fail(error);
    } finally {
      this.#running = false;
    }
  }

  #take(step: IteratorResult<unknown>): void {
    if (this.#closed) return;
    if (step.done) this.#done = true;
    else this.#output.write(this.#output.join(this.#output.frame(step.value)));
  }

  #return(): void {
    try {
      const returned = this.#iterator?.return?.();
      if (returned && isPromise(returned)) returned.catch(() => undefined);
    } catch {
      // A generator that is running (it called back into the stream) cannot be returned; it ends with its loop.
    }
  }
}
