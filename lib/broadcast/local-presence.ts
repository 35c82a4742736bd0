/** Which topics have subscribers in this process, and since when a resumable stream's topic has had none. */

interface Watch {
  watching: boolean;
  /** A producer started on it: kept after its last subscriber left, so that its grace can be counted. */
  registered: boolean;
  /** When it last had subscribers, or was registered. */
  since: number;
}

export class LocalPresence {
  readonly #topics = new Map<string, Watch>();

  has(topic: string): boolean {
    return this.#topics.has(topic);
  }

  watch(topic: string, watching: boolean, now = Date.now()): void {
    const registered = this.#topics.get(topic)?.registered ?? false;
    // A plain topic is forgotten with its last subscriber: topics come and go by the thousand (chat rooms).
    if (!watching && !registered) this.#topics.delete(topic);
    else this.#topics.set(topic, { watching, registered, since: now });
  }

  /** A producer starts: the topic counts as watched now. */
  register(topic: string, now = Date.now()): void {
    if (!this.#topics.get(topic)?.watching) this.#topics.set(topic, { watching: false, registered: true, since: now });
    else this.#topics.get(topic)!.registered = true;
  }

  /** Milliseconds since the topic last had a subscriber (0 while it has one; infinite if never known). */
  idleFor(topic: string, now = Date.now()): number {
    const watch = this.#topics.get(topic);
    if (!watch) return Number.POSITIVE_INFINITY;
    return watch.watching ? 0 : now - watch.since;
  }

  /** Forgets the topics nobody has watched since `time`. */
  forgetOlderThan(time: number): void {
    for (const [topic, watch] of this.#topics) if (!watch.watching && watch.since < time) this.#topics.delete(topic);
  }
}
