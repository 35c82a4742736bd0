/** One stream response's engine: its settings, its source's pump, its commit and its end. */
import type { OverflowPolicy } from './backlog';
import type { OutputOwner, OutputSettings } from './frame-writer';
import type { Framing } from './framing';
import { StreamOutput } from './stream-output';
import type { OpenStream, OpenStreams } from './open-streams';
import { PullPump } from './pull-pump';
import { PushPump } from './push-pump';
import type { PumpEvents, SourcePump } from './source-pump';
import type { StreamEnd, StreamObserver } from './stream-observer';
import type { StreamSink } from './stream-sink';
import type { StreamSource } from './stream-source';

/** Per-stream settings (`framework.rest.stream.*`, `framework.rest.sse.keep-alive`, or per endpoint). */
export interface StreamSettings extends OutputSettings {
  /** The application's open streams, which a shutdown ends cleanly (absent: not tracked). */
  readonly openStreams?: OpenStreams;
}

/** `settings` with the budget and overflow policy an endpoint or a `RestMulti` gives of its own. */
export function withBuffer(settings: StreamSettings, bufferSize?: number, overflow?: OverflowPolicy): StreamSettings {
  if (bufferSize === undefined && overflow === undefined) return settings;
  return { ...settings, bufferSize: bufferSize ?? settings.bufferSize, overflow: overflow ?? settings.overflow };
}

/** The pump that moves `source` into `output`: Observables pushed under the byte budget, iterators pulled. */
export function pumpFor(source: StreamSource, output: StreamOutput, events: PumpEvents): SourcePump {
  return source.kind === 'push'
    ? new PushPump(source.observable, output, events)
    : new PullPump(source.open, output, events);
}

/** The engine of a stream response of `source` framed by `framing`. */
export function createPump(
  source: StreamSource,
  framing: Framing,
  settings: StreamSettings,
  onError: (error: unknown) => void,
  observer?: StreamObserver,
): StreamPump {
  return new StreamPump(source, new StreamOutput(framing, settings, onError, observer), settings.openStreams);
}

/**
 * One stream response. `prime()` starts the source and settles once the response may commit: with the first item or
 * the end, or at once for SSE (`reconnects`: so `EventSource.onopen` fires); an earlier error goes to the mappers.
 */
export class StreamPump implements OpenStream, PumpEvents, OutputOwner {
  readonly #output: StreamOutput;
  readonly #pump: SourcePump;
  readonly #streams: OpenStreams | undefined;
  #header: readonly [string, string] | undefined;
  #started = false;
  #primed: { resolve(): void; reject(error: unknown): void } | undefined;
  #failure: { readonly error: unknown } | undefined;

  constructor(source: StreamSource, output: StreamOutput, streams?: OpenStreams) {
    this.#output = output;
    this.#streams = streams;
    this.#pump = pumpFor(source, output, this);
    output.owner = this;
  }

  /** Ended, failed, or its client gone: the source stops, and a shutdown has one stream fewer to end. */
  outputClosed(): void {
    this.#pump.stop();
    this.#streams?.delete(this);
  }

  get mediaType(): string {
    return this.#output.mediaType;
  }

  /** The response header the first item asked for (see `withStreamHeader`), known once primed. */
  get header(): readonly [string, string] | undefined {
    return this.#header;
  }

  get reconnects(): boolean {
    return this.#output.reconnects;
  }

  prime(): Promise<void> | undefined {
    this.#pump.start(!this.reconnects);
    // Nothing is written before the commit: a failure up to here answers with a real status.
    if (this.#failure) throw this.#failure.error;
    if (this.#started || this.reconnects) return undefined;
    return new Promise<void>((resolve, reject) => (this.#primed = { resolve, reject }));
  }

  attach(sink: StreamSink): void {
    this.#output.attach(sink, () => this.cancel());
    if (this.#failure) return this.#output.fail(this.#failure.error);
    this.#streams?.add(this);
  }

  whenClosed(callback: () => void): void {
    this.#output.whenClosed(callback);
  }

  endEarly(sseFrame: string, reason: StreamEnd): void {
    this.#pump.stop();
    this.#output.endEarly(sseFrame, reason);
  }

  cancel(): void {
    this.#output.close();
    this.#pump.stop();
  }

  started(header: readonly [string, string] | undefined): void {
    this.#header = header;
    this.#started = true;
    this.#primed?.resolve();
  }

  completed(): void {
    this.#output.endWhenIdle();
  }

  /** A source error or an overflow: before the commit it goes to the exception mappers, after it ends the stream. */
  failed(error: unknown): void {
    if (!this.#output.attached && this.#primed && !this.#started) return this.#primed.reject(error);
    this.#failure = { error };
    if (this.#output.attached) this.#output.fail(error);
  }
}
