/**
 * Pages of a topic's Redis stream read for resuming subscribers, shared between them: after a deploy, hundreds of
 * clients come back with the same `Last-Event-ID` and would each read (and decode, and frame) the same entries.
 * A full page is an immutable slice of an append-only stream, so it is shared while it is being read and kept for
 * a few seconds; a page that came back short (the stream's end) may have grown since, so it is never shared: each
 * subscriber reads its own last page after it has joined the live events, which is what keeps the seam whole.
 */
import type { BroadcastEvent } from './topic-events';

/** Entries per page. */
export const PAGE = 1000;
/** How long a full page is kept after it was read, and how many are kept at most. */
const KEEP_MS = 10_000;
const MAX_PAGES = 200;

interface Kept {
  readonly page: Promise<readonly BroadcastEvent[]>;
  readonly until: number;
}

export class HistoryPages {
  readonly #kept = new Map<string, Kept>();
  readonly #read: (topic: string, start: string) => Promise<BroadcastEvent[]>;

  /** `read` reads up to `PAGE` entries of `topic` from `start` (an id, `(id` for after it, or `-`). */
  constructor(read: (topic: string, start: string) => Promise<BroadcastEvent[]>) {
    this.#read = read;
  }

  /** The page of `topic` from `start`: a shared one when it is full, else one read now for the caller alone. */
  async page(topic: string, start: string, now = Date.now()): Promise<readonly BroadcastEvent[]> {
    const key = `${topic}\n${start}`;
    const kept = this.#kept.get(key);
    if (kept && kept.until > now) {
      const page = await kept.page.catch(() => undefined);
      if (page?.length === PAGE) return page;
    }
    const page = this.#read(topic, start);
    this.#keep(key, page, now);
    return page;
  }

  /** Forgets every page (Redis may have lost its data: a page read before might no longer be what it holds). */
  clear(): void {
    this.#kept.clear();
  }

  #keep(key: string, page: Promise<readonly BroadcastEvent[]>, now: number): void {
    this.#kept.delete(key);
    this.#kept.set(key, { page, until: now + KEEP_MS });
    // A page that failed or came back short is of no use to anyone else.
    page.then(
      (events) => events.length < PAGE && this.#forget(key, page),
      () => this.#forget(key, page),
    );
    for (const [oldest, entry] of this.#kept) {
      if (this.#kept.size <= MAX_PAGES && entry.until > now) break;
      this.#kept.delete(oldest);
    }
  }

  #forget(key: string, page: Promise<readonly BroadcastEvent[]>): void {
    if (this.#kept.get(key)?.page === page) this.#kept.delete(key);
  }
}
