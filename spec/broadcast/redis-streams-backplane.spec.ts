// The Redis Streams backplane in this process against a real redis-server, through broadcast(): ids are the
// stream's, a retried publish with the same key is stored once, a history trimmed past a client's id or lost
// with Redis is announced with event: reset (so is a live reader that fell behind what its stream keeps), a burst
// outrunning a short history still reaches a live reader whole, and publishing while Redis is down fails with a 503.
import { execFileSync } from 'node:child_process';
import { firstValueFrom, take, toArray } from 'rxjs';
import { broadcast, RestApplication, type RestApp, type SseEvent } from '../../lib';
import { redisServer } from '../support/redis-server';
import { SYNC_CHILD_MS, until, within } from '../support/until';

const redis = redisServer();
let app: RestApp;

/**
 * The live window: what a live reader may lag behind and still read every event. The burst spec's reader lags by as
 * long as reading the burst takes, seconds on a loaded machine (at 2 s, a loaded in-band run lost 1,400 of 3,000); the
 * trimming spec waits it out.
 */
const LIVE_WINDOW_MS = 5000;
/** Time for a subscription's live reading to be in place before publishing: a fixed wait, with room for a slow machine. */
const PLACED_MS = 1000;

/** Adds 150 copies of a stream's last entry, then trims it to its last 100, in one script (so atomically). */
const LAG_BEHIND = `
const { Redis } = require(${JSON.stringify(require.resolve('ioredis'))});
const redis = new Redis(process.argv[1]);
const script = "local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1][2] " +
  "for i = 1, 150 do redis.call('XADD', KEYS[1], '*', unpack(last)) end " +
  "redis.call('XTRIM', KEYS[1], 'MAXLEN', 100)";
redis.eval(script, 1, process.argv[2]).then(() => redis.quit(), (error) => { console.error(error); process.exit(1); });
`;

/** Whether the application's broadcast check says UP. */
async function connected(): Promise<boolean> {
  const body = (await (await app.fetch(new Request('http://localhost/q/health/ready'))).json()) as {
    checks: { name: string; status: string }[];
  };
  return body.checks.find((check) => check.name === 'broadcast')?.status === 'UP';
}

beforeAll(async () => {
  await redis.start();
  app = RestApplication.build({
    classes: [],
    overrides: {
      'framework.broadcast.backend': 'redis-streams',
      'framework.broadcast.redis.url': redis.url,
      'framework.broadcast.retention.max-events': 100,
      'framework.broadcast.redis.live-window': `${LIVE_WINDOW_MS}ms`,
    },
  });
  await until(async () => ((await connected()) ? true : undefined), 'the backplane to connect');
});
afterAll(() => app.close());

/** The first `count` events a subscriber gets. */
const first = (events: ReturnType<ReturnType<typeof broadcast>['subscribe']>, count: number): Promise<SseEvent[]> =>
  within(firstValueFrom(events.pipe(take(count), toArray())), `the first ${count} events of a subscription`);

describe('RedisStreamsBackplane', () => {
  it('gives events the ids of their stream entries, and resumes after any of them from the stream', async () => {
    const topic = broadcast<{ n: number }>('backplane-ids');
    const live = first(topic.subscribe(), 3);
    // The live reading is placed before publishing goes on: wait for the topic to be read.
    await new Promise((resolve) => setTimeout(resolve, PLACED_MS));
    const ids = [await topic.publish({ n: 1 }), await topic.publish({ n: 2 }), await topic.publish({ n: 3 })];
    for (const id of ids) expect(id).toMatch(/^\d{13}-\d+$/);
    expect((await live).map((event) => [event.id, event.data])).toEqual(ids.map((id, n) => [id, { n: n + 1 }]));
    const resumed = await first(topic.subscribe({ lastEventId: ids[0] }), 2);
    expect(resumed.map((event) => event.id)).toEqual(ids.slice(1));
  });

  it('delivers every event of a burst to a live reader however short the history, as the stream keeps what it has not read', async () => {
    // replay 0: the stream keeps only what live readers need; 3,000 publishes sent at once outrun its 100-event floor.
    const topic = broadcast<number>('backplane-burst', { replay: 0 });
    const seen: number[] = [];
    const subscription = topic.subscribe().subscribe((event) => seen.push(event.data as number));
    await new Promise((resolve) => setTimeout(resolve, PLACED_MS));
    const count = 3000;
    await Promise.all(Array.from({ length: count }, (_, n) => topic.publish(n)));
    // Read back within a few seconds, or missed for good: a later publish shows how far the reading got.
    const last = await topic.publish(count);
    await until(() => (seen.at(-1) === count ? true : undefined), 'the event published last');
    subscription.unsubscribe();
    expect(seen.length).toBe(count + 1);
    expect(seen).toEqual(Array.from({ length: count + 1 }, (_, n) => n));
    expect(last).toMatch(/^\d{13}-\d+$/);
  });

  it('stores a publish repeated with the same idempotency key once, answering the first id', async () => {
    const topic = broadcast<string>('backplane-once');
    const a = await topic.publish('hello', { idempotencyKey: 'k1' });
    const b = await topic.publish('hello', { idempotencyKey: 'k1' });
    const c = await topic.publish('hello', { idempotencyKey: 'k2' });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    const all = await first(topic.subscribe({ lastEventId: '0-1' }), 3);
    // A reset (0-1 is not held), then the two events stored.
    expect(all.map((event) => event.event ?? event.id)).toEqual(['reset', a, c]);
  });

  it('announces a history trimmed past the client: event reset with the oldest id held, then every event held', async () => {
    const topic = broadcast<number>('backplane-trimmed');
    const ids: string[] = [];
    for (let n = 0; n < 300; n++) ids.push(await topic.publish(n));
    // Events of the live window stay for the instances reading live: those 300 go once older than that.
    await new Promise((resolve) => setTimeout(resolve, LIVE_WINDOW_MS + 100));
    for (let n = 300; n < 400; n++) ids.push(await topic.publish(n));
    const events = await first(topic.subscribe({ lastEventId: ids[0] }), 2);
    expect(events[0]!.event).toBe('reset');
    const oldest = events[0]!.data as string;
    // Trimmed to exactly max-events (100): the oldest held is the 301st of 400.
    expect(oldest).toBe(ids[300]);
    expect(events[1]!.id).toBe(oldest);
  });

  it('tells a live reader that fell behind what its stream keeps (event reset), never skipping the trimmed events silently', async () => {
    const topic = broadcast<number>('backplane-lagging', { replay: 0 });
    const seen: (number | 'reset')[] = [];
    const subscription = topic
      .subscribe()
      .subscribe((event) => seen.push(event.event === 'reset' ? 'reset' : (event.data as number)));
    await new Promise((resolve) => setTimeout(resolve, PLACED_MS));
    await topic.publish(0);
    await until(() => (seen.includes(0) ? true : undefined), 'the first event');
    // This process stands still (a synchronous child) while 150 events arrive and the stream is trimmed to 100: the
    // event it read last, and the 50 after it, are gone before it reads again.
    execFileSync(process.execPath, ['-e', LAG_BEHIND, redis.url, 'rxrest:stream:backplane-lagging'], {
      timeout: SYNC_CHILD_MS,
    });
    await topic.publish(1);
    await until(() => (seen.includes(1) ? true : undefined), 'the event published after');
    subscription.unsubscribe();
    expect(seen.slice(0, 2)).toEqual([0, 'reset']);
    // Then every event the stream still held (the last 100 of the 150, a copy of the first), and the one after.
    expect(seen.slice(2)).toEqual([...Array<number>(100).fill(0), 1]);
  });

  it('fails a publish with a 503 problem and Retry-After while Redis is down, and tells a subscriber of a Redis back without its data', async () => {
    const topic = broadcast<string>('backplane-outage');
    const seen: SseEvent[] = [];
    // Subscribed while the topic's stream is empty: only the epoch can tell that Redis lost its data.
    const subscription = topic.subscribe().subscribe((event) => seen.push(event));
    await new Promise((resolve) => setTimeout(resolve, PLACED_MS));
    await redis.kill();
    await until(async () => ((await connected()) ? undefined : true), 'the backplane to see the outage');
    const refused = await topic.publish('during').catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 503,
      headers: { 'retry-after': '1' },
      problem: { code: 'RXREST_BROADCAST_UNAVAILABLE' },
    });
    redis.wipe();
    await redis.start();
    await until(() => (seen.some((event) => event.event === 'reset') ? true : undefined), 'a reset');
    expect(seen[0]).toMatchObject({ event: 'reset', data: 'none' });
    const after = await topic.publish('after');
    await until(() => (seen.some((event) => event.id === after) ? true : undefined), 'the event published after');
    subscription.unsubscribe();
  });
});
