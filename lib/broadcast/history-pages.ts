/**
 * Pages of a topic's Redis stream shared between resuming subscribers (after a deploy, hundreds come back with the
 * same `Last-Event-ID`): only full ones, a short one (the stream's end) may have grown since.
 */
import type { BroadcastEvent } from './topic-events';

export const PAGE = 1000;
const KEEP_MS = 10_000;
const MAX_PAGES = 200;
const MAX_BYTES = 32 * 1024 * 1024;

interface Kept {
  readonly page: Promise<readonly BroadcastEvent[]>;
  readonly until: number;
  bytes: number;
}

type ReadPage = (topic: string, start: string, count: number) => Promise<BroadcastEvent[]>;

export class HistoryPages {
  readonly #kept = new Map<string, Kept>();
  readonly #read: ReadPage;
  #bytes = 0;

  /** `read` reads up to `count` entries from `start` (an id, `(id` for after it, or `-`). */
  constructor(read: ReadPage) {
    this.#read = read;
  }

  /** A shared page when it is full, else one read now for the caller alone. */
  async page(topic: string, start: string, count = PAGE, now = Date.now()): Promise<readonly BroadcastEvent[]> {
    const key = `${topic}\n${start}\n${count}`;
    const kept = this.#kept.get(key);
    if (kept && kept.until > now) {
      const page = await kept.page.catch(() => undefined);
      if (page?.length === count) return page;
    }
    const page = this.#read(topic, start, count);
    this.#keep(key, page, count, now);
    return page;
  }

  /** Redis may have lost its data: a page read before might no longer be what it holds. */
  clear(): void {
    this.#kept.clear();
    this.#bytes = 0;
  }

  #keep(key: string, page: Promise<readonly BroadcastEvent[]>, count: number, now: number): void {
    this.#forget(key);
    const kept: Kept = { page, until: now + KEEP_MS, bytes: 0 };
    this.#kept.set(key, kept);
    // A page that failed or came back short is of no use to anyone else.
    page.then(
      (events) => {
        if (events.length < count) return this.#forget(key, page);
        if (this.#kept.get(key) !== kept) return;
        kept.bytes = events.reduce((sum, event) => sum + (event.bytes ?? 0), 0);
        this.#bytes += kept.bytes;
        this.#evict(now);
      },
      () => this.#forget(key, page),
    );
    this.#evict(now);
  }

  #evict(now: number): void {
    for (const [oldest, entry] of this.#kept) {
      if (this.#kept.size <= MAX_PAGES && this.#bytes <= MAX_BYTES && entry.until > now) break;
      this.#forget(oldest, entry.page);
    }
  }

  #forget(key: string, page?: Promise<readonly BroadcastEvent[]>): void {
    const kept = this.#kept.get(key);
    if (!kept || (page !== undefined && kept.page !== page)) return;
    this.#kept.delete(key);
    this.#bytes -= kept.bytes;
  }
}
