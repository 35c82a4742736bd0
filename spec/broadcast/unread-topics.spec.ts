// Which topics go past framework.broadcast.max-topics is found in ordered indexes now, not by going through every
// topic held for each new one (ten thousand with the defaults), twice. The rule is unchanged, and checked here against
// the rule as it was written before, on seeded random runs: first every topic nobody reads that holds nothing once its
// events past their age are dropped (the old sweep); then, if still full, of the topics held that nobody reads (no
// subscriber, no replay) and whose stream does not run here, the one whose newest event is the oldest; of two as old,
// the one made first (the old loop kept the first it met in the map's order, which is the order topics were made).
import type { Subscription } from 'rxjs';
import { MemoryBackplane } from '../../lib/broadcast/backplane';
import { BroadcastTopics } from '../../lib/broadcast/broadcast-topics';
import type { Topic } from '../../lib/broadcast/topic';
import { UnreadTopics } from '../../lib/broadcast/unread-topics';
import { DefaultJsonMapper } from '../../lib/json/default-json-mapper';

/** A small seeded generator (mulberry32): the same runs every time, and a failure names its seed. */
function random(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

/** What the old sweep let go: the topics nobody reads that hold nothing once the events past their age are dropped. */
function oldSweep(held: readonly Topic[], maxAgeMs: number, now: number): Topic[] {
  return held.filter(
    (topic) =>
      topic.unread && (topic.unreadSince === undefined || (maxAgeMs > 0 && topic.unreadSince < now - maxAgeMs)),
  );
}

/** The rule as `#makeRoom` wrote it before the index: a loop over the held topics in the order they were made. */
function oldRule(held: readonly Topic[], topics: BroadcastTopics): Topic | undefined {
  let oldest: Topic | undefined;
  let oldestAt = Number.POSITIVE_INFINITY;
  for (const topic of [...held].sort((a, b) => a.made - b.made)) {
    const since = topics.producers.has(topic.name) ? undefined : topic.unreadSince;
    if (since !== undefined && since < oldestAt) [oldest, oldestAt] = [topic, since];
  }
  return oldest;
}

interface Scenario {
  readonly seed: number;
  readonly maxTopics: number;
  readonly names: number;
  readonly maxEvents: number;
  /** Milliseconds events are kept (0: no age). */
  readonly maxAgeMs: number;
  /** Bytes of history across topics (small: events of other topics dropped as new ones come). */
  readonly maxTotalBytes: number;
}

const stop = () => Promise.resolve();

/** Runs `steps` random operations; before each that makes a topic past the limit, checks the one that gives way. */
async function run(scenario: Scenario, steps: number): Promise<number> {
  const { seed, maxTopics, names, maxEvents, maxAgeMs, maxTotalBytes } = scenario;
  const next = random(seed);
  let now = 1_000_000;
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
  const retention = { maxEvents, maxAgeMs, maxBytes: 1_000_000 };
  const settings = { retention, maxEventSize: 1000, maxTopics, maxTotalBytes };
  const topics = new BroadcastTopics(new MemoryBackplane(), settings, new DefaultJsonMapper());
  topics.backplane.start(topics.listener);
  const readers = new Map<string, Subscription[]>();
  const all = Array.from({ length: names }, (_, n) => `t${n}`);
  const held = () => all.map((name) => topics.find(name)).filter((topic): topic is Topic => topic !== undefined);
  let checked = 0;
  try {
    for (let step = 0; step < steps; step++) {
      now += next(3); // often the same millisecond: the order topics were made decides
      const name = all[next(names)]!;
      const before = held();
      const makes = topics.find(name) === undefined && before.length >= maxTopics;
      const swept = makes ? oldSweep(before, maxAgeMs, now) : [];
      const left = before.filter((topic) => !swept.includes(topic));
      const expected = makes && left.length >= maxTopics ? oldRule(left, topics) : undefined;
      const refusable = makes && left.length >= maxTopics;
      const op = next(10);
      let refused = false;
      try {
        if (op < 5) await topics.publish(name, { data: { step } }, undefined);
        else if (op < 7) {
          const subscription = topics.topic(name, undefined).join(undefined).subscribe();
          readers.set(name, [...(readers.get(name) ?? []), subscription]);
        } else if (op < 8) topics.topic(name, undefined);
        else if (op < 9) readers.get(name)?.pop()?.unsubscribe();
        else topics.running(name, topics.producers.has(name) ? undefined : { stop });
      } catch (error) {
        expect((error as { status?: number }).status).toBe(503);
        refused = true;
      }
      if (!makes || op >= 8) continue;
      checked++;
      // Refused only when none may give way; else the swept topics and the old rule's are gone, and (when no event of
      // another topic was dropped for the budget) only those.
      expect([seed, step, refused]).toEqual([seed, step, refusable && expected === undefined]);
      const gone = [...swept, ...(expected ? [expected] : [])].map((topic) => topic.name);
      expect([seed, step, gone.filter((n) => topics.find(n) !== undefined)]).toEqual([seed, step, []]);
      if (maxTotalBytes === Number.POSITIVE_INFINITY && !refused)
        expect([seed, step, held().map((topic) => topic.name)]).toEqual([
          seed,
          step,
          all.filter((n) => n === name || (!gone.includes(n) && before.some((topic) => topic.name === n))),
        ]);
    }
  } finally {
    for (const subscriptions of readers.values()) for (const subscription of subscriptions) subscription.unsubscribe();
    await topics.close();
    clock.mockRestore();
  }
  return checked;
}

describe('the topic that gives way past framework.broadcast.max-topics', () => {
  it('is the one the old rule chose, on seeded random runs (publishes, readers, streams running, same-ms ties)', async () => {
    const scenarios: Scenario[] = [];
    for (let seed = 1; seed <= 12; seed++)
      scenarios.push({
        seed,
        maxTopics: [3, 8, 40][seed % 3]!,
        names: [6, 20, 120][seed % 3]!,
        maxEvents: 1 + (seed % 4),
        maxAgeMs: seed % 4 < 2 ? 0 : 6,
        maxTotalBytes: seed % 2 === 0 ? 60 : Number.POSITIVE_INFINITY,
      });
    let checked = 0;
    for (const scenario of scenarios) checked += await run(scenario, 3000);
    // Enough choices were compared to mean something.
    expect(checked).toBeGreaterThan(3000);
  });
});

describe('UnreadTopics', () => {
  it('answers the oldest as a sorted list would, through moves, removals and ties', () => {
    const next = random(7);
    const made = Array.from({ length: 50 }, (_, n) => ({ made: n }));
    const index = new UnreadTopics<{ made: number }>();
    const model = new Map<{ made: number }, number>();
    for (let step = 0; step < 20_000; step++) {
      const topic = made[next(made.length)]!;
      if (next(4) === 0) {
        index.set(topic, undefined);
        model.delete(topic);
      } else {
        const since = next(30);
        index.set(topic, since);
        model.set(topic, since);
      }
      const sorted = [...model].sort(([a, x], [b, y]) => x - y || a.made - b.made);
      expect([step, index.oldest()]).toEqual([step, sorted[0]?.[0]]);
    }
  });
});
