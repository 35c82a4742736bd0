/**
 * Event ids in the form Redis Streams gives them, `<milliseconds>-<sequence>`: increasing within a topic and,
 * because they start from the clock, still increasing after a restart, so an id from before it is never
 * mistaken for a new one. The in-memory history makes its ids the same way.
 */

const STREAM_ID = /^(\d{1,16})-(\d{1,16})$/;

/** Whether `id` has the `<ms>-<seq>` form (a `Last-Event-ID` may be anything a client sends). */
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

/** Makes the ids of one topic: the clock's milliseconds, and a sequence within the same millisecond. */
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
