/** Moves the items of a stream source through a framing into a sink: batching, backpressure, buffer, cancellation. */
import { interval, type Subscription } from 'rxjs';
import type { Framing } from './framing';
import { BoundedBuffer, type OverflowPolicy } from './bounded-buffer';
import type { StreamSink } from './stream-sink';
import type { StreamSource } from './stream-source';

/** Per-stream settings (`framework.rest.stream.*`, `framework.rest.sse.keep-alive`, or per endpoint). */
export interface StreamSettings {
  readonly bufferSize: number;
  readonly overflow: OverflowPolicy;
  /** Milliseconds between SSE keep-alive comments; 0 disables them. */
  readonly keepAliveMs: number;
}

// Items emitted in the same tick are joined into writes of about this many characters.
const BATCH_CHARS = 16384;
// Before the sink is attached, written chunks are held like a socket would hold them, up to this much.
const PENDING_CHARS = 65536;
const KEEP_ALIVE = ':\n\n';

/**
 * One stream response. `prime()` starts the source and settles with its first item (or completion) so
 * the response is committed only then; an error before that is thrown for the exception mappers.
 * `attach()` then writes to the sink: items of the same tick are batched, an Observable's items wait
 * in the bounded buffer while the sink is full, an async iterable is pulled only when it is not.
 */
export class StreamPump {
  readonly #source: StreamSource;
  readonly #framing: Framing;
  readonly #settings: StreamSettings;
  readonly #onError: (error: unknown) => void;
  readonly #buffer: BoundedBuffer<unknown>;
  #sink: StreamSink | undefined;
  #batch: string;
  #pending: (string | Uint8Array)[] | undefined = [];
  #pendingChars = 0;
  #index = 0;
  #waiting = false;
  #flushScheduled = false;
  #wrote = false;
  #done = false;
  #closed = false;
  #failure: { error: unknown } | undefined;
  #teardown: (() => void) | undefined;
  #iterator: AsyncIterator<unknown> | undefined;
  #resumePull: (() => void) | undefined;
  #keepAlive: Subscription | undefined;

  constructor(source: StreamSource, framing: Framing, settings: StreamSettings, onError: (error: unknown) => void) {
    this.#source = source;
    this.#framing = framing;
    this.#settings = settings;
    this.#onError = onError;
    this.#buffer = new BoundedBuffer(settings.bufferSize, settings.overflow);
    this.#batch = framing.start;
  }

  get mediaType(): string {
    return this.#framing.mediaType;
  }

  /** Starts the source: `undefined` when the first item or the end is already here, else a Promise of it. */
  prime(): Promise<void> | undefined {
    return this.#source.kind === 'push' ? this.#primePush() : this.#primePull();
  }

  /** Starts writing to `sink` (its headers are out); from now on an error truncates or ends the stream. */
  attach(sink: StreamSink): void {
    this.#sink = sink;
    sink.onClose(() => this.cancel());
    if (this.#failure) return this.#finishWithError(this.#failure.error);
    if (this.#closed) return;
    if (this.#framing.keepAlive && this.#settings.keepAliveMs > 0) this.#startKeepAlive(this.#settings.keepAliveMs);
    const pending = this.#pending!;
    this.#pending = undefined;
    let ready = true;
    for (const chunk of pending) ready = sink.write(chunk) && ready;
    if (!ready) {
      this.#waiting = true;
      sink.onReady(() => this.#resume());
    }
    if (this.#source.kind === 'pull') void this.#pullLoop();
    else if (ready) this.#resume();
  }

  /** Stops the source at once (client gone, or the response will never be written). */
  cancel(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop();
  }

  #stop(): void {
    this.#keepAlive?.unsubscribe();
    this.#keepAlive = undefined;
    const teardown = this.#teardown;
    this.#teardown = undefined;
    teardown?.();
    this.#resumePull?.();
  }

  #primePush(): Promise<void> | undefined {
    const source = this.#source as Extract<StreamSource, { kind: 'push' }>;
    let settled = false;
    let outcome: { error?: unknown; failed: boolean } | undefined;
    let notify: (() => void) | undefined;
    const primed = () => {
      if (settled) return;
      settled = true;
      notify?.();
    };
    const subscription = source.observable.subscribe({
      next: (item) => {
        this.#accept(item);
        primed();
      },
      error: (error: unknown) => {
        if (settled) return this.#fail(error);
        settled = true;
        outcome = { error, failed: true };
        this.#closed = true;
        notify?.();
      },
      complete: () => {
        this.#done = true;
        primed();
        if (this.#sink && !this.#waiting) this.#resume();
      },
    });
    this.#teardown = () => subscription.unsubscribe();
    if (this.#closed) this.#stop();
    if (outcome?.failed) throw outcome.error;
    if (settled) return undefined;
    return new Promise<void>((resolve, reject) => {
      notify = () => (outcome?.failed ? reject(outcome.error) : resolve());
    });
  }

  #primePull(): Promise<void> {
    const source = this.#source as Extract<StreamSource, { kind: 'pull' }>;
    const iterator = source.iterable[Symbol.asyncIterator]();
    this.#iterator = iterator;
    this.#teardown = () => void Promise.resolve(iterator.return?.()).catch(() => undefined);
    return iterator.next().then((first) => {
      if (first.done) this.#done = true;
      else this.#emit(first.value);
    });
  }

  /** An Observable item: written now when the sink can take it, else buffered under the overflow policy. */
  #accept(item: unknown): void {
    if (this.#closed) return;
    if (!this.#waiting && this.#buffer.size === 0) return this.#emit(item);
    try {
      this.#buffer.push(item);
    } catch (error) {
      this.#fail(error);
    }
  }

  #emit(item: unknown): void {
    const frame = this.#framing.frame(item, this.#index++);
    if (typeof frame !== 'string') {
      this.#flush();
      this.#write(frame);
      return;
    }
    this.#batch += frame;
    if (this.#batch.length >= BATCH_CHARS) this.#flush();
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flushScheduled = false;
        if (!this.#waiting) this.#flush();
      });
    }
  }

  #flush(): void {
    if (this.#batch === '') return;
    const chunk = this.#batch;
    this.#batch = '';
    this.#write(chunk);
  }

  #write(chunk: string | Uint8Array): void {
    if (this.#pending) return this.#hold(chunk);
    if (this.#closed || !this.#sink) return;
    this.#wrote = true;
    if (this.#sink.write(chunk) || this.#waiting) return;
    this.#waiting = true;
    this.#sink.onReady(() => this.#resume());
  }

  /** Before commit, chunks wait here; past the limit, an Observable's items go to the bounded buffer. */
  #hold(chunk: string | Uint8Array): void {
    this.#pending!.push(chunk);
    this.#pendingChars += chunk.length;
    if (this.#pendingChars >= PENDING_CHARS) this.#waiting = true;
  }

  /** The sink can take more: drain the buffer, resume pulling, or finish. */
  #resume(): void {
    this.#waiting = false;
    if (this.#source.kind === 'pull') {
      const resume = this.#resumePull;
      this.#resumePull = undefined;
      return resume?.();
    }
    try {
      while (!this.#waiting && !this.#closed && this.#buffer.size > 0) this.#emit(this.#buffer.shift());
    } catch (error) {
      return this.#fail(error);
    }
    if (this.#waiting || this.#closed || !this.#sink) return;
    if (this.#failure) return this.#finishWithError(this.#failure.error);
    if (this.#done) this.#end();
    else this.#flush();
  }

  async #pullLoop(): Promise<void> {
    const iterator = this.#iterator!;
    try {
      while (!this.#done && !this.#closed) {
        if (this.#waiting) await new Promise<void>((resolve) => (this.#resumePull = resolve));
        if (this.#closed) return;
        const next = await iterator.next();
        if (this.#closed) return;
        if (next.done) break;
        this.#emit(next.value);
      }
      if (!this.#closed) this.#end();
    } catch (error) {
      this.#fail(error);
    }
  }

  #end(): void {
    const tail = this.#batch + this.#framing.end;
    this.#batch = '';
    if (tail !== '') this.#write(tail);
    this.#closed = true;
    this.#stop();
    this.#sink!.end();
  }

  /** A source error after the first item: logged; SSE gets an `error` event, other framings are truncated. */
  #fail(error: unknown): void {
    if (this.#closed && this.#sink) return;
    this.#failure = { error };
    this.#closed = true;
    this.#stop();
    if (this.#sink) this.#finishWithError(error);
  }

  #finishWithError(error: unknown): void {
    this.#onError(error);
    const sink = this.#sink!;
    const errorFrame = this.#framing.errorFrame;
    if (errorFrame === undefined) return sink.abort();
    for (const chunk of this.#pending ?? []) sink.write(chunk);
    this.#pending = undefined;
    let tail = this.#batch;
    while (this.#buffer.size > 0) {
      const frame = this.#framing.frame(this.#buffer.shift(), this.#index++);
      if (typeof frame === 'string') tail += frame;
    }
    sink.write(tail + errorFrame);
    sink.end();
  }

  /** A comment every `period` ms in which nothing else was written; an RxJS timer so marble tests can drive it. */
  #startKeepAlive(period: number): void {
    this.#keepAlive = interval(period).subscribe(() => {
      if (!this.#wrote && !this.#waiting && !this.#closed) this.#sink!.write(KEEP_ALIVE);
      this.#wrote = false;
    });
  }
}
