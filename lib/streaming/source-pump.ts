/** What a pushed and a pulled source's pumps share: their output, when they stop, and what they tell their owner. */
import type { StreamOutput } from './stream-output';
import { streamHeaderOf } from './stream-header';

/** What a pump tells whoever runs it: a stream response, or a WebSocket's answer. */
export interface PumpEvents {
  /** The first item came, or the end before any: a response may commit, with the header that item asked for. */
  started?(header: readonly [string, string] | undefined): void;
  /** The source ended: all it sent is written or waits in the output. */
  completed(): void;
  /** The source failed, or what it sent did not fit the budget; the source is stopped already. */
  failed(error: unknown): void;
}

/** Moves one source into an output; a pump of each kind (`PushPump`, `PullPump`) owns only its own state. */
export abstract class SourcePump {
  #stopped = false;
  #started = false;

  constructor(
    protected readonly output: StreamOutput,
    protected readonly events: PumpEvents,
  ) {}

  /** Starts reading the source; `first`: a pulled source takes its first item now, before the commit. */
  abstract start(first: boolean): void;

  get stopped(): boolean {
    return this.#stopped;
  }

  /** Stops the source (its output is over, or its stream cancelled), telling no one. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.release();
  }

  protected abstract release(): void;

  /** Tells of the first item, or (no `item`) of an end that came before any. */
  protected started(item?: unknown): void {
    if (this.#started) return;
    this.#started = true;
    this.events.started?.(streamHeaderOf(item));
  }

  protected fail(error: unknown): void {
    if (this.#stopped) return;
    this.stop();
    this.events.failed(error);
  }
}
