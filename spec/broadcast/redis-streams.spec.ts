// Broadcast on Redis Streams under faults, against a real redis-server that syncs every write to its append-only
// file: two samples instances, each with framework.http.workers=2 (so four processes read the topic), clients that
// are cut every few hundred events and come back on the other instance with their Last-Event-ID, workers and a
// whole instance killed, Redis killed and started again with its data and then without it, and a job that
// outlives its client. Every client must end with every event exactly once, in the one order all share, or be
// told (event: reset) when events were lost.
import { request } from 'node:http';
import { redisServer } from '../support/redis-server';
import { startSamples, type SamplesProcess } from '../support/samples-process';
import { openSse, type SseConnection, type SseMessage } from '../support/sse-client';
import { until, within } from '../support/until';

const redis = redisServer({ appendOnly: true });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Set once the file's tests are over: the publishers below retry for as long as it takes, and a test that timed out
 * would otherwise leave them retrying against stopped instances through every later spec file.
 */
let over = false;
afterAll(() => (over = true));
/** The readers still running: each test's are stopped after it, so a test that failed leaves none to the next. */
const running = new Set<ResumingReader>();
afterEach(() => {
  running.forEach((reader) => reader.stop());
  running.clear();
});

const instances: SamplesProcess[] = [];
const start = () =>
  startSamples({
    FRAMEWORK_BROADCAST_BACKEND: 'redis-streams',
    FRAMEWORK_BROADCAST_REDIS_URL: redis.url,
    FRAMEWORK_HTTP_WORKERS: '2',
  });

async function readiness(url: string): Promise<string | undefined> {
  try {
    const body = (await (await fetch(`${url}/q/health/ready`)).json()) as {
      checks: { name: string; status: string }[];
    };
    return body.checks.find((check) => check.name === 'broadcast')?.status;
  } catch {
    return undefined;
  }
}

/** Both instances, every worker connected to Redis: readiness asked enough times to reach each worker. */
async function allReady(): Promise<void> {
  for (const instance of instances) {
    for (let n = 0; n < 6; n++)
      await until(async () => ((await readiness(instance.url)) === 'UP' ? true : undefined), 'broadcast UP');
  }
}

/** What a POST came back with: its status (0 when no answer came), and for a 503 its Retry-After and problem code. */
interface Posted {
  readonly status: number;
  readonly retryAfter?: string;
  readonly code?: string;
}

/**
 * POST over a connection of its own: the answer, or status 0 when the connection failed or no answer came within 3 s
 * (an instance killed, or a connection handed to a worker in the instant it died).
 */
function postOnce(url: string, text: string): Promise<Posted> {
  return new Promise((resolve) => {
    const headers = { 'content-type': 'application/json', 'idempotency-key': text };
    const req = request(`${url}/chat/messages`, { method: 'POST', agent: false, headers, timeout: 3000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status !== 503) return resolve({ status });
        const retryAfter = res.headers['retry-after'];
        resolve({ status, retryAfter: String(retryAfter), code: (JSON.parse(body) as { code?: string }).code });
      });
      res.on('error', () => resolve({ status: 0 }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0 }));
    req.end(JSON.stringify({ user: 'spec', text }));
  });
}

/** What the publishers met: 503 answers (each checked to say when to try again), and posts that got no answer. */
interface Published {
  readonly unavailable: number;
  readonly unanswered: number;
}

/** Publishers that post `texts`, alternately to each instance, trying again (same Idempotency-Key) until 202. */
async function publish(
  texts: readonly string[],
  urls: () => string[],
  onEach: (index: number) => Promise<void> | void = () => undefined,
): Promise<Published> {
  let next = 0;
  let unavailable = 0;
  let unanswered = 0;
  const poster = async () => {
    for (let index = next++; index < texts.length; index = next++) {
      await onEach(index);
      for (let attempt = 0; ; attempt++) {
        if (over) throw new Error(`the spec file ended before ${texts[index]} was published`);
        const live = urls();
        const posted = await postOnce(live[(index + attempt) % live.length]!, texts[index]!);
        if (posted.status === 202) break;
        if (posted.status === 503) {
          // A refusal says why and when to try again.
          expect(posted).toEqual({ status: 503, retryAfter: '1', code: 'RXREST_BROADCAST_UNAVAILABLE' });
          unavailable++;
        } else if (posted.status === 0) unanswered++;
        else throw new Error(`POST ${texts[index]} answered ${posted.status}`);
        await sleep(50);
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, poster));
  return { unavailable, unanswered };
}

/**
 * A chat client that reads from one instance, cuts its connection every ~`cutEvery` messages (or loses it) and
 * comes back on the next instance with the id of the last message it got.
 */
class ResumingReader {
  readonly texts: string[] = [];
  /** Every event in the order received, as `reset` or the message text (to see where a reset fell). */
  readonly log: string[] = [];
  /** Answers that came with 200 and were read. */
  reconnections = 0;
  /** Attempts that failed: no answer (or no head in time), a status other than 200, an `event: error` in a stream. */
  readonly failures: string[] = [];
  #last: string | undefined;
  #turn: number;
  #connection: SseConnection | undefined;
  #stopped = false;

  constructor(
    readonly urls: () => string[],
    readonly cutEvery: number,
    first: number,
  ) {
    this.#turn = first;
    running.add(this);
  }

  /** Reads until `done` says so, then stops. */
  async run(done: (reader: ResumingReader) => boolean): Promise<void> {
    while (!this.#stopped && !done(this)) {
      const live = this.urls();
      const url = live[this.#turn++ % live.length]!;
      let connection: SseConnection;
      try {
        connection = await openSse(
          `${url}/chat/stream`,
          this.#last === undefined ? {} : { 'last-event-id': this.#last },
        );
      } catch (error) {
        this.failures.push(error instanceof Error ? error.message : String(error));
        await sleep(20);
        continue;
      }
      if (connection.status !== 200) {
        this.failures.push(`${url} answered ${connection.status}`);
        connection.cut();
        await sleep(20);
        continue;
      }
      this.#connection = connection;
      this.reconnections++;
      const cutAt = this.texts.length + Math.round(this.cutEvery * (0.5 + Math.random()));
      let read = 0;
      // A reader may wait long for its next events (while Redis restarts): the test's own deadline bounds it.
      await connection.until(
        (events) => {
          for (; read < events.length; read++) this.#take(events[read]!);
          return this.#stopped || done(this) || this.texts.length >= cutAt;
        },
        "the reader's next cut",
        120_000,
      );
      connection.cut();
    }
  }

  /** Waits until it has joined (an answer head came), so that what is published next is meant for it. */
  async joined(): Promise<void> {
    await until(() => (this.#connection ? true : undefined), 'the reader to connect');
  }

  stop(): void {
    this.#stopped = true;
    this.#connection?.cut();
  }

  #take(event: SseMessage): void {
    if (event.event === 'reset') return void this.log.push('reset');
    // The server's word that this stream failed: counted (the reader comes back and resumes).
    if (event.event === 'error') return void this.failures.push(`event: error ${event.data}`);
    this.#last = event.id;
    const { text } = JSON.parse(event.data) as { text: string };
    this.texts.push(text);
    this.log.push(text);
  }
}

/** `count` readers started on alternate instances, reading until `done`; resolves once each has joined. */
async function startReaders(
  count: number,
  cutEvery: number,
  done: (reader: ResumingReader) => boolean,
): Promise<{ readers: ResumingReader[]; reading: Promise<void>[] }> {
  const readers = Array.from({ length: count }, (_, n) => new ResumingReader(urls, cutEvery, n));
  const reading = readers.map((reader) => reader.run(done));
  await Promise.all(readers.map((reader) => reader.joined()));
  // Joined means answered: give the live reading of each instance a moment to be in place before publishing.
  await sleep(200);
  return { readers, reading };
}

function expectEveryOnceInOneOrder(readers: readonly ResumingReader[], texts: readonly string[]): void {
  const order = readers[0]!.texts;
  expect(new Set(order)).toEqual(new Set(texts));
  for (const reader of readers) {
    expect(reader.texts).toHaveLength(texts.length);
    expect(reader.texts).toEqual(order);
  }
}

beforeAll(async () => {
  await redis.start();
  instances.push(...(await Promise.all([start(), start()])));
  await allReady();
}, 60_000);
afterAll(() => instances.forEach((instance) => instance.crash()));

const urls = () => instances.map((instance) => instance.url);

describe('broadcast on redis-streams, two instances of two workers each', () => {
  it('gives 20 clients cut every ~500 events, each resuming on the other instance, all of 10,000 messages once, in one order', async () => {
    const texts = Array.from({ length: 10_000 }, (_, n) => `cut-${n}`);
    const { readers, reading } = await startReaders(20, 500, (self) => self.texts.length >= texts.length);
    await publish(texts, urls);
    await within(Promise.all(reading), 'every reader to read every message', 100_000);
    expectEveryOnceInOneOrder(readers, texts);
    // Each client really was cut and came back many times, on both instances.
    for (const reader of readers) expect(reader.reconnections).toBeGreaterThan(10);
    expect(readers.every((reader) => !reader.log.includes('reset'))).toBe(true);
    // Not one resume failed: every head was 200 and in time, and no stream said `event: error`.
    expect(readers.flatMap((reader) => reader.failures)).toEqual([]);
  }, 120_000);

  it('loses and repeats nothing when a worker, then a whole instance, is killed mid-stream', async () => {
    const texts = Array.from({ length: 5000 }, (_, n) => `kill-${n}`);
    const { readers, reading } = await startReaders(20, 500, (self) => self.texts.length >= texts.length);
    const [first, second] = instances as [SamplesProcess, SamplesProcess];
    const workers = first.workers();
    expect(workers).toHaveLength(2);
    await publish(texts, urls, (index) => {
      if (index === 1500) process.kill(workers[0]!, 'SIGKILL');
      if (index === 3000) {
        second.crash();
        // Clients and publishers go to the survivor from now on.
        instances.splice(1, 1);
      }
    });
    await within(Promise.all(reading), 'every reader to read every message', 100_000);
    expectEveryOnceInOneOrder(readers, texts);
    expect(first.output()).toMatch(new RegExp(`Worker ${workers[0]} exited with signal SIGKILL`));
    instances.push(await start());
    await allReady();
  }, 120_000);

  it('answers 503 while Redis is down; what was accepted reaches every client once after Redis comes back with its data', async () => {
    const texts = Array.from({ length: 1500 }, (_, n) => `outage-${n}`);
    const { readers, reading } = await startReaders(10, 300, (self) => self.texts.length >= texts.length);
    let restarted: Promise<void> | undefined;
    let down: { status: number; broadcast: string | undefined } | undefined;
    const { unavailable } = await publish(texts, urls, async (index) => {
      if (index !== 500) return;
      await redis.kill();
      // While Redis is away, readiness is DOWN (503) on the Redis Streams backend.
      down = await until(async () => {
        const answer = await fetch(`${instances[0]!.url}/q/health/ready`);
        const body = (await answer.json()) as { checks: { name: string; status: string }[] };
        const broadcast = body.checks.find((check) => check.name === 'broadcast')?.status;
        return broadcast === 'DOWN' ? { status: answer.status, broadcast } : undefined;
      }, 'readiness DOWN');
      restarted = sleep(1000).then(() => redis.start());
    });
    await restarted;
    await within(Promise.all(reading), 'every reader to read every message', 100_000);
    expect(down).toEqual({ status: 503, broadcast: 'DOWN' });
    // The outage was seen by publishers as 503s with Retry-After (checked as they came), and no message was lost
    // or doubled.
    expect(unavailable).toBeGreaterThan(0);
    expectEveryOnceInOneOrder(readers, texts);
    expect(instances[0]!.output()).toContain('is unreachable');
    await allReady();
  }, 120_000);

  it('tells every client of a Redis that came back without its data (event: reset), never a silent gap', async () => {
    const before = Array.from({ length: 100 }, (_, n) => `before-${n}`);
    const after = Array.from({ length: 100 }, (_, n) => `after-${n}`);
    const { readers, reading } = await startReaders(
      8,
      60,
      (self) => self.texts.filter((text) => text.startsWith('after-')).length >= after.length,
    );
    await publish(before, urls);
    await until(
      () => (readers.every((reader) => reader.texts.includes(before.at(-1)!)) ? true : undefined),
      'every reader to have the first messages',
    );
    await redis.kill();
    redis.wipe();
    await redis.start();
    await allReady();
    await publish(after, urls);
    await within(Promise.all(reading), 'every reader to read every message', 100_000);
    for (const reader of readers) {
      const lastBefore = reader.log.lastIndexOf(before.at(-1)!);
      const firstAfter = reader.log.findIndex((entry) => entry.startsWith('after-'));
      // Between the old history and the new one, every client was told.
      expect(reader.log.slice(lastBefore, firstAfter)).toContain('reset');
      expect(new Set(reader.texts.slice(-after.length))).toEqual(new Set(after));
      expect(reader.texts.slice(-after.length)).toEqual(readers[0]!.texts.slice(-after.length));
    }
  }, 120_000);
});

describe('a resumable job on redis-streams', () => {
  /** Starts a job on `url`: the path of its events (from `Location: /jobs/{id}`). */
  async function startJob(url: string, query: string): Promise<string> {
    const res = await fetch(`${url}/jobs?${query}`, { method: 'POST' });
    expect(res.status).toBe(202);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/jobs\/[0-9a-f-]{36}$/);
    return `${location}/events`;
  }

  const steps = (events: readonly SseMessage[]) =>
    events
      .filter((event) => event.event === undefined)
      .map((event) => (JSON.parse(event.data) as { step: number }).step);
  const stepTimes = (events: readonly SseMessage[]) => events.map((event) => Number(event.id!.split('-')[0]));

  it('goes on when its client leaves at step 50; the client comes back a second later on the other instance for steps 51-200 and done', async () => {
    const [a, b] = instances as [SamplesProcess, SamplesProcess];
    const location = await startJob(a.url, 'steps=200&interval=20');
    const first = await openSse(`${a.url}${location}`);
    expect(first.status).toBe(200);
    await first.until((events) => steps(events).includes(50));
    first.cut();
    const seen = steps(first.events);
    const lastId = first.events[seen.indexOf(50)]!.id!;
    expect(seen.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, n) => n + 1));
    await sleep(1000);
    const again = await openSse(`${b.url}${location}`, { 'last-event-id': lastId });
    await again.ended;
    expect(steps(again.events)).toEqual(Array.from({ length: 150 }, (_, n) => n + 51));
    expect(again.events.at(-1)).toMatchObject({ event: 'done', data: '{"items":200}' });
    // Once the client has the end, a reconnection is told there is no more: 204, which stops an EventSource.
    const ended = await fetch(`${a.url}${location}`, { headers: { 'last-event-id': again.events.at(-1)!.id! } });
    expect(ended.status).toBe(204);
    expect((await fetch(`${b.url}/jobs/no-such-job/events`)).status).toBe(404);
  }, 30_000);

  it('keeps running while its client reads on the other instance, and stops its grace after the client left', async () => {
    const [a, b] = instances as [SamplesProcess, SamplesProcess];
    // Started on a, read on b only: a learns that b has a reader through Redis.
    const location = await startJob(a.url, 'steps=100000&interval=20&grace=1000');
    const reader = await openSse(`${b.url}${location}`);
    // Over 100 steps read on b (2 s at the job's pace): it ran on while its only reader was on the other instance.
    await reader.until((events) => steps(events).length > 100, 'over 100 steps on b');
    reader.cut();
    const lastSeen = stepTimes(reader.events).at(-1)!;
    expect(steps(reader.events).length).toBeGreaterThan(100);
    // Past the grace (1 s) and the producer's check (250 ms), with room for a loaded machine's late timers: a reader
    // coming back before the job stopped would keep it running.
    await sleep(3500);
    const late = await openSse(`${a.url}${location}`, { 'last-event-id': reader.events.at(-1)!.id! });
    await late.ended;
    const end = late.events.at(-1)!;
    expect(end.event).toBe('cancelled');
    // Cancelled one grace (1 s) after the reader left, give or take the producer's check (250 ms) and scheduling
    // (a loaded machine's late timers: a job that never stopped would run for 2,000 s).
    const stoppedAfter = Number(end.id!.split('-')[0]) - lastSeen;
    expect(stoppedAfter).toBeGreaterThanOrEqual(900);
    expect(stoppedAfter).toBeLessThan(5000);
  }, 30_000);

  it('ends for its readers with event: error when the process running it dies', async () => {
    const [a, b] = instances as [SamplesProcess, SamplesProcess];
    const location = await startJob(b.url, 'steps=100000&interval=20&grace=60000');
    const reader = await openSse(`${a.url}${location}`);
    await reader.until((events) => steps(events).length >= 10);
    b.crash();
    const crashed = Date.now();
    await reader.ended;
    expect(reader.events.at(-1)).toMatchObject({ event: 'error', data: '{"lost":true}' });
    // The producer's heartbeat lapses after 3 s, and two checks 2 s apart must both find it gone.
    expect(Date.now() - crashed).toBeLessThan(12_000);
    // Every step it stored is there, once, in order.
    expect(steps(reader.events)).toEqual(Array.from({ length: steps(reader.events).length }, (_, n) => n + 1));
  }, 30_000);
});
