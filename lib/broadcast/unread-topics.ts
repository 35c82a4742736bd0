/**
 * The topics that only keep history here, oldest newest-event first (then the first made): the one that gives way past
 * `framework.broadcast.max-topics`. A binary heap with each topic's place in it, so that a change moves a topic in
 * O(log n) and the oldest is found in O(1), not by going through every topic held for each new one.
 */

export interface UnreadTopic {
  readonly made: number;
}

interface Place<T> {
  readonly topic: T;
  since: number;
  at: number;
}

const before = <T extends UnreadTopic>(a: Place<T>, b: Place<T>): boolean =>
  a.since < b.since || (a.since === b.since && a.topic.made < b.topic.made);

export class UnreadTopics<T extends UnreadTopic> {
  readonly #heap: Place<T>[] = [];
  readonly #places = new Map<T, Place<T>>();

  oldest(): T | undefined {
    return this.#heap[0]?.topic;
  }

  /** When the oldest's newest event was kept (`-Infinity` for one that holds none). */
  oldestSince(): number | undefined {
    return this.#heap[0]?.since;
  }

  /** Puts the topic in its place as unread since `since`, or (undefined: read, or not to give way) takes it out. */
  set(topic: T, since: number | undefined): void {
    const place = this.#places.get(topic);
    if (since === undefined) return place && this.#remove(place);
    if (!place) {
      const added = { topic, since, at: this.#heap.length };
      this.#places.set(topic, added);
      this.#heap.push(added);
      return this.#up(added);
    }
    // One of the two moves it, the other finds it in place.
    place.since = since;
    this.#up(place);
    this.#down(place);
  }

  #remove(place: Place<T>): void {
    this.#places.delete(place.topic);
    const last = this.#heap.pop()!;
    if (last === place) return;
    this.#put(last, place.at);
    this.#up(last);
    this.#down(last);
  }

  #up(place: Place<T>): void {
    while (place.at > 0) {
      const parent = this.#heap[(place.at - 1) >> 1]!;
      if (!before(place, parent)) return;
      this.#swap(place, parent);
    }
  }

  #down(place: Place<T>): void {
    for (;;) {
      const left = this.#heap[2 * place.at + 1];
      const right = this.#heap[2 * place.at + 2];
      const first = right && left && before(right, left) ? right : left;
      if (!first || !before(first, place)) return;
      this.#swap(place, first);
    }
  }

  #swap(a: Place<T>, b: Place<T>): void {
    const at = a.at;
    this.#put(a, b.at);
    this.#put(b, at);
  }

  #put(place: Place<T>, at: number): void {
    place.at = at;
    this.#heap[at] = place;
  }
}
