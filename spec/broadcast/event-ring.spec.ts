// The in-process history of a topic: kept by count, by bytes and by age, looked up from the newest end, and the ids it is
// made of, which increase within a millisecond and across restarts.
import { compareIds, IdClock, isStreamId } from '../../lib/broadcast/event-ids';
import { EventRing } from '../../lib/broadcast/event-ring';
import { sseEvent } from '../../lib';

const event = (id: string) => sseEvent({ id, data: id });

describe('EventRing', () => {
  it('keeps the last max-events, and answers the events after an id it holds (undefined for one it does not)', () => {
    const ring = new EventRing();
    for (let n = 1; n <= 7; n++) ring.push(event(`${n}-0`), 10, { maxEvents: 5, maxAgeMs: 0, maxBytes: 1000 });
    expect(ring.size).toBe(5);
    expect(ring.oldest).toBe('3-0');
    expect(ring.newest?.id).toBe('7-0');
    expect(ring.after('5-0')?.map((kept) => kept.event.id)).toEqual(['6-0', '7-0']);
    expect(ring.after('7-0')).toEqual([]);
    expect(ring.after('2-0')).toBeUndefined();
    expect(ring.after('3-0')?.[0]?.event.data).toBe('4-0');
  });

  it('drops what is older than max-age, when pushing and when trimmed', () => {
    const ring = new EventRing();
    const retention = { maxEvents: 100, maxAgeMs: 1000, maxBytes: 1000 };
    ring.push(event('1-0'), 1, retention, 10_000);
    ring.push(event('2-0'), 1, retention, 10_500);
    ring.push(event('3-0'), 1, retention, 11_200);
    expect(ring.all().map((kept) => kept.event.id)).toEqual(['2-0', '3-0']);
    ring.trim(retention, 12_100);
    expect(ring.all().map((kept) => kept.event.id)).toEqual(['3-0']);
  });

  it('keeps at most max-bytes, dropping the oldest first, and not even the newest when it alone passes them', () => {
    const ring = new EventRing();
    const retention = { maxEvents: 100, maxAgeMs: 0, maxBytes: 1000 };
    for (let n = 1; n <= 10; n++) ring.push(event(`${n}-0`), 300, retention);
    // 3 of 300 bytes fit in 1000; a fourth would not.
    expect(ring.all().map((kept) => kept.event.id)).toEqual(['8-0', '9-0', '10-0']);
    ring.push(event('11-0'), 1001, retention);
    expect(ring.size).toBe(0);
    // What was dropped counts no more: three fit again.
    for (let n = 12; n <= 14; n++) ring.push(event(`${n}-0`), 300, retention);
    expect(ring.size).toBe(3);
  });

  it('keeps nothing with max-events 0, and nothing after clear()', () => {
    const ring = new EventRing();
    ring.push(event('1-0'), 1, { maxEvents: 0, maxAgeMs: 0, maxBytes: 1000 });
    expect(ring.size).toBe(0);
    ring.push(event('2-0'), 1, { maxEvents: 3, maxAgeMs: 0, maxBytes: 1000 });
    ring.clear();
    expect(ring.oldest).toBeUndefined();
  });
});

describe('event ids', () => {
  it('are <ms>-<seq>, increasing within one millisecond and when the clock moves on', () => {
    const clock = new IdClock();
    expect([clock.next(5), clock.next(5), clock.next(4), clock.next(6)]).toEqual(['5-0', '5-1', '5-2', '6-0']);
    expect(compareIds('5-2', '5-10')).toBeLessThan(0);
    expect(compareIds('6-0', '5-10')).toBeGreaterThan(0);
    expect(compareIds('not-an-id', '0-0')).toBeLessThan(0);
    expect(isStreamId('1795561017471-0')).toBe(true);
    expect(isStreamId('42')).toBe(false);
  });
});
