// The history budget of an application across its topics' rings: the oldest events overall go first, events a ring
// dropped on its own stop counting, and the queue that orders them stays proportionate to what is held.
import { EventRing } from '../../lib/broadcast/event-ring';
import { HistoryBudget, type HistoryHolder } from '../../lib/broadcast/history-budget';
import { sseEvent } from '../../lib';

const retention = { maxEvents: 3, maxAgeMs: 0, maxBytes: 1000 };

/** A ring on `budget` whose holder drops its oldest as a topic does. */
function ringOn(budget: HistoryBudget): EventRing {
  const holder: HistoryHolder = { dropOldest: () => ring.dropOldest() };
  const ring = new EventRing(budget, holder);
  return ring;
}

const ids = (ring: EventRing) => ring.all().map((kept) => kept.event.id);

describe('HistoryBudget', () => {
  it('drops the oldest events across rings once their bytes pass the budget', () => {
    const budget = new HistoryBudget(50);
    const [a, b] = [ringOn(budget), ringOn(budget)];
    a.push(sseEvent({ id: 'a1', data: '' }), 20, retention);
    b.push(sseEvent({ id: 'b1', data: '' }), 20, retention);
    a.push(sseEvent({ id: 'a2', data: '' }), 20, retention);
    expect([ids(a), ids(b), budget.bytes]).toEqual([['a2'], ['b1'], 40]);
    b.push(sseEvent({ id: 'b2', data: '' }), 60, retention);
    // One event past the whole budget is not kept either.
    expect([ids(a), ids(b), budget.bytes]).toEqual([[], [], 0]);
  });

  it('stops counting what a ring drops by its own retention, and after a clear', () => {
    const budget = new HistoryBudget(1000);
    const ring = ringOn(budget);
    for (let n = 0; n < 5; n++) ring.push(sseEvent({ id: `e${n}`, data: '' }), 10, retention);
    expect([ids(ring), budget.bytes]).toEqual([['e2', 'e3', 'e4'], 30]);
    ring.clear();
    expect(budget.bytes).toBe(0);
  });

  it('keeps at most the budget through many events of many rings, and counts exactly what the rings hold', () => {
    const budget = new HistoryBudget(10_000);
    const rings = Array.from({ length: 50 }, () => ringOn(budget));
    for (let n = 0; n < 20_000; n++)
      rings[n % 50]!.push(sseEvent({ id: `${n}`, data: '' }), 7 + (n % 13), { ...retention, maxEvents: 1 + (n % 5) });
    const held = rings.flatMap((ring) => ring.all()).reduce((sum, kept) => sum + kept.bytes, 0);
    expect(held).toBe(budget.bytes);
    expect(held).toBeLessThanOrEqual(10_000);
  });
});
