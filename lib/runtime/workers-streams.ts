/** How a streamed answer on workerd ends when its client leaves, which cancels no stream there. */

/** How long a stream on workerd may go on when its client's leaving cannot be seen (ms; 0: no bound). */
export interface WorkersStreamBounds {
  /** A stream whose client has taken nothing this long after a chunk was handed over is taken for gone. */
  readonly stallTimeout: number;
  /** A stream ends (cleanly) after this long. */
  readonly maxDuration: number;
}

interface WorkersGlobals {
  Cloudflare?: { compatibilityFlags?: Record<string, boolean> };
}

/**
 * `body`, its source cancelled when `request.signal` aborts (the `enable_request_signal` flag). Without it nothing
 * tells, and the request's timers stop with its client: the stream keeps it alive (`waitUntil`) within `bounds`.
 */
export function boundedOnWorkers(
  body: ReadableStream<Uint8Array>,
  request: Request,
  executionCtx: unknown,
  bounds: WorkersStreamBounds,
): ReadableStream<Uint8Array> {
  const flags = (globalThis as WorkersGlobals).Cloudflare?.compatibilityFlags;
  const signal = flags?.enable_request_signal === true ? request.signal : undefined;
  const stream = new BoundedStream(body.getReader(), signal === undefined ? bounds : undefined);
  if (signal === undefined) {
    const waitUntil = (executionCtx as { waitUntil?: (promise: Promise<unknown>) => void } | undefined)?.waitUntil;
    if (typeof waitUntil === 'function') waitUntil.call(executionCtx, stream.ended);
  } else if (signal.aborted) stream.finish(signal.reason, false);
  else {
    const leave = () => stream.finish(signal.reason, false);
    signal.addEventListener('abort', leave, { once: true });
    void stream.ended.then(() => signal.removeEventListener('abort', leave));
  }
  return new ReadableStream<Uint8Array>(
    {
      start: (controller) => stream.start(controller),
      pull: (controller) => stream.pull(controller),
      cancel: (reason) => stream.finish(reason, false),
    },
    { highWaterMark: 0 },
  );
}

/** One bounded stream: its source, when a chunk was last handed over untaken, and its timers. */
class BoundedStream {
  readonly ended: Promise<void>;
  #resolveEnded: () => void = () => undefined;
  #finished = false;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #handedAt = 0;
  #untaken = false;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  #lifeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    readonly bounds: WorkersStreamBounds | undefined,
  ) {
    this.ended = new Promise<void>((done) => (this.#resolveEnded = done));
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#controller = controller;
    const maxDuration = this.bounds?.maxDuration ?? 0;
    if (maxDuration > 0) this.#lifeTimer = setTimeout(() => this.finish(undefined, true), maxDuration);
  }

  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    this.#untaken = false;
    let read: Awaited<ReturnType<typeof this.reader.read>>;
    try {
      read = await this.reader.read();
    } catch (error) {
      // The source failed: the answer fails with it, and the request is let go now, not at the maximum duration.
      this.finish(error, false);
      throw error;
    }
    const { value, done } = read;
    if (this.#finished) return;
    if (done) return (controller.close(), this.finish(undefined, false));
    controller.enqueue(value);
    const stallTimeout = this.bounds?.stallTimeout ?? 0;
    if (stallTimeout <= 0) return;
    // workerd asks for the next chunk once it has written this one: until it does, the chunk is untaken.
    this.#handedAt = Date.now();
    this.#untaken = true;
    this.#stallTimer ??= setTimeout(this.#checkStall, stallTimeout);
  }

  /** Ends the stream: its source is cancelled, and the answer closed when `close` (a bound reached, not a cancel). */
  finish(reason: unknown, close: boolean): void {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#stallTimer);
    clearTimeout(this.#lifeTimer);
    void this.reader.cancel(reason).catch(() => undefined);
    if (close) closeQuietly(this.#controller);
    this.#resolveEnded();
  }

  readonly #checkStall = (): void => {
    this.#stallTimer = undefined;
    if (!this.#untaken || this.#finished) return;
    const left = this.bounds!.stallTimeout - (Date.now() - this.#handedAt);
    if (left > 0) this.#stallTimer = setTimeout(this.#checkStall, left);
    else this.finish(new Error('the client took nothing for too long'), true);
  };
}

function closeQuietly(controller: ReadableStreamDefaultController<Uint8Array> | undefined): void {
  try {
    controller?.close();
  } catch {
    // Already closed or errored: nothing is left to end.
  }
}
