/** Event ids as Redis Streams gives them, `<ms>-<seq>`: from the clock, so still increasing after a restart. */
const STREAM_ID = /^(\d{1,16})-(\d{1,16})$/;

export function isStreamId(id: string): boolean {
  return STREAM_ID.test(id);
}

function parts(id: string): [number, number] {
  const match = STREAM_ID.exec(id);
  return match ? [Number(match[1]), Number(match[2])] : [-1, -1];
}

/** Negative, zero or positive as `a` is before, equal to or after `b`; ids of another form sort first. */
export function compareIds(a: string, b: string): number {
  const [msA, seqA] = parts(a);
  const [msB, seqB] = parts(b);
  return msA === msB ? seqA - seqB : msA - msB;
}

export class IdClock {
  #ms = 0;
  #seq = 0;

  next(now = Date.now()): string {
    if (now > this.#ms) {
      this.#ms = now;
      this.#seq = 0;
    } else this.#seq++;
    return `${this.#ms}-${this.#seq}`;
  }
}
