/** Which topics have subscribers in this process, and since when a resumable stream's topic has had none. */

/** `registered`: a producer started on it, so it is kept after its last subscriber left (its grace is counted). */
interface Watch {
  registered: boolean;
  since: number;
}

/** Unwatched topics oldest first: forgetting the old ones stops at the first too young, not going through all. */
export class LocalPresence {
  readonly #watched = new Map<string, Watch>();
  readonly #unwatched = new Map<string, Watch>();

  watch(topic: string, watching: boolean, now = Date.now()): void {
    const registered = (this.#watched.get(topic) ?? this.#unwatched.get(topic))?.registered ?? false;
    this.#watched.delete(topic);
    this.#unwatched.delete(topic);
    // A plain topic is forgotten with its last subscriber: topics come and go by the thousand (chat rooms).
    if (watching) this.#watched.set(topic, { registered, since: now });
    else if (registered) this.#unwatched.set(topic, { registered, since: now });
  }

  register(topic: string): void {
    const watched = this.#watched.get(topic);
    if (watched) {
      watched.registered = true;
      return;
    }
    this.#unwatched.delete(topic);
    this.#unwatched.set(topic, { registered: true, since: Date.now() });
  }

  /** Milliseconds since the topic last had a subscriber (0 while it has one; infinite if never known). */
  idleFor(topic: string): number {
    if (this.#watched.has(topic)) return 0;
    const watch = this.#unwatched.get(topic);
    return watch ? Date.now() - watch.since : Number.POSITIVE_INFINITY;
  }

  forgetOlderThan(time: number): void {
    for (const [topic, watch] of this.#unwatched) {
      if (watch.since >= time) return;
      this.#unwatched.delete(topic);
    }
  }
}
