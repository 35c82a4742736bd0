/** The idempotency keys of recent publishes in this process, so that a repeated publish answers the first id. */
import { maybeNodeBuiltin } from '../runtime/node-builtins';
import type { Retention } from './event-ring';

/** Longer keys are kept as their digest. */
const LONGEST_KEPT = 64;

/**
 * `key` as the backplanes keep it: one past 64 characters as `#` and its SHA-256 (where there is node:crypto), so a
 * stranger's 16 KB `Idempotency-Key` costs what a UUID does. Whole, it was kept for the topic's retention: 100,000 of
 * them in memory (1.6 GB), any number in Redis.
 */
export function keptKey(key: string | undefined): string | undefined {
  const nodeCrypto = key !== undefined && key.length > LONGEST_KEPT ? maybeNodeBuiltin('node:crypto') : undefined;
  return nodeCrypto ? `#${nodeCrypto.createHash('sha256').update(key!).digest('base64url')}` : key;
}

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
