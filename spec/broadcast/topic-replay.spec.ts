// What a resuming subscriber missed is sent from this process's history a page at a time, each once the last has gone
// out: a page is at most half the room left in its stream's budget and at most RING_PAGE (4,000) events. With the
// budget alone (64M by default) a whole history of small events was one page: a client that never reads, resuming
// from the start of a 100,000-event topic, held it all framed in memory (25 MB of RSS each, measured; 2 MB now).
import { Observable, type Subscriber } from 'rxjs';
import { EventRing } from '../../lib/broadcast/event-ring';
import { Joined } from '../../lib/broadcast/joined';
import { replayRing, RING_PAGE } from '../../lib/broadcast/topic-replay';
import { sseEvent, type SseEvent } from '../../lib';

describe('replayRing', () => {
  it('sends a large history of small events RING_PAGE at a time, each page once the last has drained', () => {
    const ring = new EventRing();
    const retention = { maxEvents: 20_000, maxAgeMs: 0, maxBytes: 64 * 1024 * 1024 };
    for (let n = 0; n < 20_000; n++) ring.push(sseEvent({ id: `1-${n}`, data: n }), 10, retention);
    const sent: SseEvent[] = [];
    let subscriber!: Subscriber<SseEvent>;
    new Observable<SseEvent>((taken) => void (subscriber = taken)).subscribe((event) => sent.push(event));
    const joined = new Joined(subscriber, undefined, Number.POSITIVE_INFINITY, () => undefined);
    let drained: (() => void) | undefined;
    const pace = { room: 64 * 1024 * 1024, whenDrained: (next: () => void) => void (drained = next) };
    let caughtUp = false;
    const pages: number[] = [];
    replayRing(ring, joined, '1-0', pace, () => (caughtUp = true));
    while (drained) {
      pages.push(sent.length);
      const next = drained;
      drained = undefined;
      next();
    }
    expect(pages).toEqual([RING_PAGE, 2 * RING_PAGE, 3 * RING_PAGE, 4 * RING_PAGE]);
    expect([caughtUp, sent.length, sent.at(-1)?.id]).toEqual([true, 19_999, '1-19999']);
  });
});
