/** gzip and deflate through the Web `CompressionStream` and `DecompressionStream`. Knows no HTTP and no limits. */
import { streamOf, utf8Bytes } from './bytes';
import { nextMacrotask } from './timers';

/** The codings the Web API can apply (`deflate` is the zlib format, RFC 1950, as HTTP's `deflate` coding is). */
export type WebCoding = 'gzip' | 'deflate';

/** Whether `coding` can be applied through `CompressionStream` here. */
export function isWebCoding(coding: string): coding is WebCoding {
  return (coding === 'gzip' || coding === 'deflate') && typeof CompressionStream === 'function';
}

/** `body` encoded with `coding`, as a stream; it cannot flush after a chunk, so it suits whole bodies only. */
export function compressOnTheWeb(
  body: string | Uint8Array | ReadableStream<Uint8Array>,
  coding: WebCoding,
): ReadableStream<Uint8Array> {
  const bytes = typeof body === 'string' ? utf8Bytes(body) : body;
  const source = bytes instanceof ReadableStream ? bytes : streamOf(bytes);
  return source.pipeThrough(new CompressionStream(coding) as unknown as TransformStream<Uint8Array, Uint8Array>);
}

// The most compressed bytes handed to the decompressor at once: deflate inflates at most ~1,032 times, so ~16 MiB.
const SLICE_BYTES = 16 * 1024;

/**
 * `source` gunzipped by `DecompressionStream`, fed in 16 KiB slices only once a read waits: Node's and workerd's take
 * every write at once, and workerd inflates each whole (a 100 MB bomb piped in grew it by 150 MB).
 */
export function gunzipOnTheWeb(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const gunzip = new FedGunzip(source.getReader());
  return new ReadableStream<Uint8Array>(
    { pull: (controller) => gunzip.pull(controller), cancel: (reason) => gunzip.cancel(reason) },
    { highWaterMark: 0 },
  );
}

/** The most inflated bytes one read takes. */
const READ_BYTES = 64 * 1024;

type OutputReader = Pick<ReadableStreamDefaultReader<Uint8Array>, 'read' | 'cancel'>;

/** Reads into a buffer of {@link READ_BYTES} where `readable` takes one (workerd's plain reads give 4 KiB a turn). */
function outputReader(readable: ReadableStream<Uint8Array>): OutputReader {
  try {
    const reader = readable.getReader({ mode: 'byob' });
    return { read: () => reader.read(new Uint8Array(READ_BYTES)), cancel: (reason) => reader.cancel(reason) };
  } catch {
    return readable.getReader();
  }
}

/** A `DecompressionStream` whose input is written a slice at a time, only when its reader waits. */
class FedGunzip {
  readonly #gunzip = new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>;
  readonly #writer = this.#gunzip.writable.getWriter();
  readonly #output = outputReader(this.#gunzip.readable);
  #rest: Uint8Array | undefined;
  #ended = false;
  #feeding: Promise<void> | undefined;

  constructor(readonly input: ReadableStreamDefaultReader<Uint8Array>) {}

  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    const read = this.#output.read();
    let settled = false;
    const answered = read.then(
      () => void (settled = true),
      () => void (settled = true),
    );
    for (;;) {
      // Output inflated already reaches a read within a turn of the event loop (workerd's, measured): only a read
      // still waiting after two turns needs more input.
      for (let turn = 0; turn < 2 && !settled; turn++)
        await Promise.race([answered, new Promise<void>((done) => nextMacrotask(done))]);
      if (settled || this.#ended) break;
      this.#feeding ??= this.#feed()
        .catch((error: unknown) => this.#fail(error))
        .finally(() => (this.#feeding = undefined));
      await Promise.race([this.#feeding, answered]);
    }
    const { done, value } = await read;
    if (done) controller.close();
    else controller.enqueue(value);
  }

  async cancel(reason: unknown): Promise<void> {
    await Promise.all([this.input.cancel(reason), this.#output.cancel(reason)]);
  }

  /** A body that failed (its client left) or a write refused (not gzip): the reads fail, none waits for more. */
  #fail(error: unknown): void {
    this.#ended = true;
    void this.#writer.abort(error).catch(() => undefined);
  }

  /**
   * Writes the next slice of the input, or closes the decompressor at its end. A write or the close may wait until
   * output is read (Node's do), so only the next feed waits on them; their failures show on the reads.
   */
  async #feed(): Promise<void> {
    if (!this.#rest?.byteLength) {
      const next = await this.input.read();
      if (next.done) {
        this.#ended = true;
        return void this.#writer.close().catch(() => undefined);
      }
      this.#rest = next.value;
    }
    const slice = this.#rest.subarray(0, SLICE_BYTES);
    this.#rest = this.#rest.subarray(SLICE_BYTES);
    await this.#writer.write(slice);
  }
}
