/** Which topics have subscribers in this process, and since when a topic has had none (for resumable producers). */

interface Watch {
  watching: boolean;
  /** When it last had subscribers, or was registered. */
  since: number;
}

export class LocalPresence {
  readonly #topics = new Map<string, Watch>();

  has(topic: string): boolean {
    return this.#topics.has(topic);
  }

  watch(topic: string, watching: boolean, now = Date.now()): void {
    this.#topics.set(topic, { watching, since: now });
  }

  /** A producer starts: the topic counts as watched now. */
  register(topic: string, now = Date.now()): void {
    if (!this.#topics.get(topic)?.watching) this.#topics.set(topic, { watching: false, since: now });
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
