/** The framed items an Observable emitted ahead of its client, held under the byte budget and overflow policy. */
import { formatSize } from '../http/size';
import type { Logger } from '../logging/logger';
import { ItemSlabs } from './item-slabs';
import { utf8Bytes } from '../runtime/bytes';

/** What a stream does with an item that would take it past its byte budget. */
export type OverflowPolicy = 'fail' | 'drop-oldest' | 'drop-newest' | 'latest';

/** Raised (as the stream's error) when a `fail` stream gets more than its budget ahead of its client. */
export class StreamOverflowError extends Error {
  /** `held`: what this stream held when cut because the application's streams together held their total budget. */
  constructor(
    readonly budget: number,
    readonly held?: number,
  ) {
    super(
      held === undefined
        ? `The stream got more than ${formatSize(budget)} ahead of its client (framework.rest.stream.buffer-size, or the endpoint's ` +
            '@StreamBuffer / RestMulti.buffer): raise the budget, pick a drop policy, or return a pulled source (an async iterable, multi.from(...))'
        : `The stream got ${formatSize(Math.ceil(held / 1024) * 1024)} ahead of its client, past its share, while the application's streams together held ` +
            'their total budget (framework.rest.stream.total-buffer-size): raise it, pick a drop policy, or return a pulled source',
    );
    this.name = 'StreamOverflowError';
  }
}

/** Logs an overflow or an outage (503) as a one-line warning (a stack per stream says nothing), else an error. */
export function streamFailureLog(log: Logger, where: string): (error: unknown) => void {
  return (error) =>
    error instanceof StreamOverflowError || isUnavailable(error)
      ? log.warn(`${where}: ${error.message}`)
      : log.error(where, error);
}

/** An error answering 503 (a broadcast backend unreachable, say), known by its status alone at this layer. */
function isUnavailable(error: unknown): error is Error & { readonly status: 503 } {
  return error instanceof Error && (error as { status?: unknown }).status === 503;
}

// Merged text is turned into bytes once it is this long: one compact Buffer instead of a rope of small strings.
const CHUNK_CHARS = 16384;

type Frame = string | Uint8Array;

/**
 * A FIFO of framed output under the overflow policies (`outstanding` counting too). Under `fail` frames are joined
 * into 16 KB Buffers (messages apart); drop policies keep an entry per item in `ItemSlabs`, joined when taken.
 */
export class Backlog {
  #chunks: (Frame | undefined)[] = [];
  #head = 0;
  #bytes = 0;
  readonly #items: ItemSlabs | undefined;
  dropped = 0;

  constructor(
    readonly budget: number,
    readonly policy: OverflowPolicy,
    /** Adds what goes before a frame in the output (a separator); called once per frame, in output order. */
    readonly join: (frame: Frame) => Frame,
    readonly onDrop?: () => void,
    /** Each frame is a message of its own (a WebSocket's): never joined to the next. */
    readonly apart = false,
  ) {
    this.#items = policy === 'fail' ? undefined : new ItemSlabs(budget);
  }

  get empty(): boolean {
    return this.#items ? this.#items.size === 0 : this.#head === this.#chunks.length;
  }

  /** Framed bytes held (characters for text not yet made bytes). */
  get bytes(): number {
    return this.#items ? this.#items.bytes : this.#bytes;
  }

  /** Holds `frame`, or applies the policy when `outstanding` plus the backlog would pass `limit`. */
  push(frame: Frame, outstanding: number, limit = this.budget): void {
    if (outstanding + this.bytes + frame.length > limit && !this.#makeRoom(frame.length, outstanding, limit)) return;
    if (this.#items) this.#items.push(frame);
    else this.#merge(this.join(frame));
  }

  /** The oldest held output, joined and ready to write; `undefined` when empty. */
  shift(): Frame | undefined {
    if (this.#items) {
      const item = this.#items.shift();
      return item === undefined ? undefined : this.join(item);
    }
    if (this.empty) return undefined;
    const chunk = this.#chunks[this.#head]!;
    this.#chunks[this.#head++] = undefined;
    this.#bytes -= chunk.length;
    // Compact now and then so the array does not grow with everything ever pushed.
    if (this.#head > 1024 && this.#head * 2 > this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#head);
      this.#head = 0;
    }
    return chunk;
  }

  /** False when the arriving frame is to be dropped; throws under `fail`. */
  #makeRoom(size: number, outstanding: number, limit: number): boolean {
    const items = this.#items;
    if (!items) throw new StreamOverflowError(this.budget, limit < this.budget ? outstanding + this.bytes : undefined);
    if (this.policy === 'drop-newest') {
      this.dropped++;
      this.onDrop?.();
      return false;
    }
    // drop-oldest makes just enough room; latest keeps nothing but the arriving item.
    while (items.size > 0 && (this.policy === 'latest' || outstanding + items.bytes + size > limit)) {
      items.drop();
      this.dropped++;
      this.onDrop?.();
    }
    return true;
  }

  /** Appends joined text to the last chunk while that is short; once long enough it becomes bytes. */
  #merge(frame: Frame): void {
    const last = this.#chunks.length - 1;
    const tail = last >= this.#head ? this.#chunks[last] : undefined;
    if (this.apart || typeof frame !== 'string' || typeof tail !== 'string' || tail.length >= CHUNK_CHARS) {
      this.#chunks.push(frame);
      this.#bytes += frame.length;
      return;
    }
    const merged = tail + frame;
    const chunk = merged.length >= CHUNK_CHARS ? utf8Bytes(merged) : merged;
    this.#chunks[last] = chunk;
    this.#bytes += chunk.length - tail.length;
  }
}
