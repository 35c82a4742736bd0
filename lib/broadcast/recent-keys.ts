/** The idempotency keys of recent publishes in this process, so that a repeated publish answers the first id. */
import type { Retention } from './event-ring';

/** Kept as long as the topic's events are, and at most this many in all. */
const MAX_KEYS = 100_000;

export class RecentKeys {
  /** By topic and key: the first id, and when the key expires (0: never, when events have no age limit). */
  readonly #seen = new Map<string, { readonly id: string; readonly at: number }>();

  get(topic: string, key: string | undefined): string | undefined {
    if (key === undefined) return undefined;
    const seen = this.#seen.get(`${topic}\n${key}`);
    return seen && (seen.at >= Date.now() || seen.at === 0) ? seen.id : undefined;
  }

  set(topic: string, key: string | undefined, id: string, retention: Retention): void {
    if (key === undefined) return;
    const at = retention.maxAgeMs > 0 ? Date.now() + retention.maxAgeMs : 0;
    this.#seen.set(`${topic}\n${key}`, { id, at });
    if (this.#seen.size > MAX_KEYS) this.#seen.delete(this.#seen.keys().next().value!);
  }
}
