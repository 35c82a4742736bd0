/**
 * Sends a resuming subscriber what it missed at its stream's pace, a page at a time (half the room left in its budget):
 * a history larger than the budget streams whole, and a slow client holds one page. Without a pace, all at once.
 */
import type { StreamPace } from '../streaming/stream-pace';
import type { Backplane } from './backplane';
import type { EventRing } from './event-ring';
import { PAGE } from './history-pages';
import { resetNotice, sharedSseEvent } from './topic-events';
import type { Joined } from './joined';

/** What an SSE frame adds to an event's data (`id:`, `data:`, blank lines), counted with it against the room. */
const FRAME_BYTES = 48;

/**
 * The events a page of this process's history holds at most (else half a 64M budget holds a whole history of small
 * events). Four of Redis Streams' pages: fewer, larger pages keep a reader as fast as one unpaged (measured).
 */
export const RING_PAGE = 4 * PAGE;

/** The bytes a page may take: half the room left, so that the live events that come meanwhile fit too. */
const pageBytes = (pace: StreamPace | undefined): number =>
  pace ? Math.max(1, pace.room / 2) : Number.POSITIVE_INFINITY;

/** `caughtUp` is called in the same turn as the last page: no live event falls between. `from` gone: a reset first. */
export function replayRing(
  ring: EventRing,
  joined: Joined,
  from: string | symbol,
  pace: StreamPace | undefined,
  caughtUp: () => void,
): void {
  let last = typeof from === 'string' ? from : undefined;
  const page = () => {
    if (joined.subscriber.closed) return;
    let rest = last === undefined ? ring.all() : ring.after(last);
    if (!rest) {
      if (!joined.send(resetNotice(ring.oldest))) return;
      rest = ring.all();
    }
    const limit = pageBytes(pace);
    let sent = 0;
    let count = 0;
    for (const kept of rest) {
      if (pace && sent > 0 && (count >= RING_PAGE || sent + kept.bytes + FRAME_BYTES > limit))
        return pace.whenDrained(page);
      if (!joined.send(kept.event)) return;
      sent += kept.bytes + FRAME_BYTES;
      count++;
      last = kept.event.id;
    }
    caughtUp();
  };
  page();
}

/** A durable topic's history read a page at a time, up to a short page; then the live events that waited meanwhile. */
export async function replayHistory(
  backplane: Backplane,
  topic: string,
  joined: Joined,
  from: string | undefined,
  pace: StreamPace | undefined,
  maxEventSize: number,
): Promise<void> {
  let last = from;
  // A guess at an event's size until a page tells: the largest an event may be.
  let eventBytes = maxEventSize + FRAME_BYTES;
  for (;;) {
    const count = Math.max(1, Math.min(PAGE, Math.floor(pageBytes(pace) / eventBytes)));
    const dropped = joined.dropped;
    const page = await backplane.history(topic, last, count);
    if (joined.subscriber.closed) return;
    if (page.reset) {
      if (!joined.send(resetNotice(page.reset.oldest))) return;
      last = undefined;
    }
    let bytes = 0;
    for (const event of page.events) {
      if (!joined.send(sharedSseEvent(event))) return;
      bytes += (event.bytes ?? 0) + FRAME_BYTES;
      last = event.id;
    }
    if (page.events.length > 0) eventBytes = Math.max(FRAME_BYTES, bytes / page.events.length);
    // Live events dropped while this page was read are in the history: it is read on until it has them all.
    if (!page.more && joined.dropped === dropped) break;
    if (pace) await new Promise<void>((resolve) => pace.whenDrained(resolve));
    if (joined.subscriber.closed) return;
  }
  const waiting = joined.waiting ?? [];
  joined.waiting = undefined;
  joined.waitingBytes = 0;
  joined.after = last;
  for (const event of waiting) if (!joined.take(event)) return;
}
