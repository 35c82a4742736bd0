/** A FIFO of framed items kept as bytes in reused 64 KB slabs, so that dropping items makes no garbage. */
import { allocBytes, utf8Length, utf8Text, writeUtf8 } from '../runtime/bytes';

const SLAB_BYTES = 65536;

interface Slab {
  readonly bytes: Uint8Array;
  items: number;
}

/**
 * Items are copied into reused slabs; an emptied slab returns to a free list (up to `keepBytes`), so a drop policy
 * churns through the same memory instead of leaving old-generation garbage. Items leave as copies (strings), so a slab
 * is never reused while a socket still holds part of it.
 */
export class ItemSlabs {
  readonly #keepBytes: number;
  #free: Uint8Array[] = [];
  #current: Slab | undefined;
  #offset = 0;
  // One entry per item from #head on: its slab and its byte range there.
  #slabs: (Slab | undefined)[] = [];
  #starts: number[] = [];
  #ends: number[] = [];
  #binary: boolean[] = [];
  #head = 0;
  #bytes = 0;

  constructor(keepBytes: number) {
    this.#keepBytes = keepBytes;
  }

  get size(): number {
    return this.#slabs.length - this.#head;
  }

  get bytes(): number {
    return this.#bytes;
  }

  push(frame: string | Uint8Array): void {
    const length = typeof frame === 'string' ? utf8Length(frame) : frame.length;
    const slab = this.#slabFor(length);
    if (typeof frame === 'string') writeUtf8(slab.bytes, frame, this.#offset);
    else slab.bytes.set(frame, this.#offset);
    slab.items++;
    this.#slabs.push(slab);
    this.#starts.push(this.#offset);
    this.#ends.push(this.#offset + length);
    this.#binary.push(typeof frame !== 'string');
    this.#offset += length;
    this.#bytes += length;
  }

  /** Removes the oldest item and returns a copy of it, as text when it came as text; `undefined` when empty. */
  shift(): string | Uint8Array | undefined {
    if (this.size === 0) return undefined;
    const { bytes } = this.#slabs[this.#head]!;
    const start = this.#starts[this.#head]!;
    const end = this.#ends[this.#head]!;
    const item = this.#binary[this.#head]
      ? Uint8Array.prototype.slice.call(bytes, start, end)
      : utf8Text(bytes, start, end);
    this.#remove();
    return item;
  }

  drop(): void {
    if (this.size > 0) this.#remove();
  }

  #remove(): void {
    const slab = this.#slabs[this.#head]!;
    this.#bytes -= this.#ends[this.#head]! - this.#starts[this.#head]!;
    this.#slabs[this.#head++] = undefined;
    if (--slab.items === 0 && slab !== this.#current) this.#release(slab);
    if (this.#head > 1024 && this.#head * 2 > this.#slabs.length) {
      this.#slabs = this.#slabs.slice(this.#head);
      this.#starts = this.#starts.slice(this.#head);
      this.#ends = this.#ends.slice(this.#head);
      this.#binary = this.#binary.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The slab the next `length` bytes go to: the current one while they fit, else a free or new one. */
  #slabFor(length: number): Slab {
    const current = this.#current;
    if (current && this.#offset + length <= current.bytes.length) return current;
    if (current && current.items === 0) this.#release(current);
    // An item larger than a slab gets one of its own, never reused.
    const bytes = length > SLAB_BYTES ? allocBytes(length) : (this.#free.pop() ?? allocBytes(SLAB_BYTES));
    this.#current = { bytes, items: 0 };
    this.#offset = 0;
    return this.#current;
  }

  #release(slab: Slab): void {
    if (slab.bytes.length === SLAB_BYTES && (this.#free.length + 1) * SLAB_BYTES <= this.#keepBytes)
      this.#free.push(slab.bytes);
  }
}
