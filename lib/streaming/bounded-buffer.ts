/** The bounded queue in front of a slow client for push sources, with its overflow policy (DESIGN §4). */

/** What a full buffer does with one more item. */
export type OverflowPolicy = 'fail' | 'drop-oldest' | 'drop-newest' | 'latest';

/** Raised (as the stream's error) when a `fail` buffer overflows. */
export class StreamOverflowError extends Error {
  constructor(readonly capacity: number) {
    super(`The stream's buffer of ${capacity} items overflowed: the client reads slower than the source emits`);
    this.name = 'StreamOverflowError';
  }
}

/**
 * A FIFO of at most `capacity` items. On overflow: `fail` throws `StreamOverflowError`; `drop-oldest`
 * evicts the head; `drop-newest` discards the arriving item; `latest` keeps only the arriving item.
 *
 * @example
 * const buffer = new BoundedBuffer<number>(2, 'drop-oldest');
 * buffer.push(1); buffer.push(2); buffer.push(3); // holds 2, 3
 */
export class BoundedBuffer<T> {
  #items: (T | undefined)[] = [];
  #head = 0;
  /** Items discarded by a drop policy so far. */
  dropped = 0;

  constructor(
    readonly capacity: number,
    readonly policy: OverflowPolicy,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`A stream buffer needs a capacity of at least 1, got ${capacity}`);
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    if (this.size < this.capacity) {
      this.#items.push(item);
      return;
    }
    switch (this.policy) {
      case 'fail':
        throw new StreamOverflowError(this.capacity);
      case 'drop-newest':
        this.dropped++;
        return;
      case 'drop-oldest':
        this.shift();
        this.dropped++;
        this.#items.push(item);
        return;
      case 'latest':
        this.dropped += this.size;
        this.#items = [item];
        this.#head = 0;
        return;
    }
  }

  /** Removes and returns the oldest item; `undefined` when empty. */
  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    // Compact now and then so the array does not grow with everything ever pushed.
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}
