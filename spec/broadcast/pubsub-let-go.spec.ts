// On the Redis pub/sub backend each instance keeps its own history, so a finished stream whose history this process
// let go (past framework.broadcast.max-topics, or its events dropped past retention.max-total-bytes) is gone here
// as it is in memory: resuming it answers 404 (RXREST_STREAM_NOT_FOUND) at once, over a real socket against the
// samples and a real redis-server. It used to be taken for a stream still running (its presence in Redis said it
// existed) and the client waited forever for events that would never come.
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { redisServer } from '../support/redis-server';
import { openSse } from '../support/sse-client';
import { until } from '../support/until';

const redis = redisServer();

async function samples(overrides: Record<string, string | number>): Promise<RunningServer> {
  const server = await buildSamples({
    'framework.rest.sse.keep-alive': '0',
    'framework.broadcast.backend': 'redis',
    'framework.broadcast.redis.url': redis.url,
    ...overrides,
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  await until(async () => ((await fetch(`${server.url}/q/health/ready`)).ok ? true : undefined), 'Redis');
  return server;
}

/** Starts a job of one step and reads it to its end: its events url and the id of its first event. */
async function finishedJob(server: RunningServer): Promise<{ url: string; first: string }> {
  const started = await fetch(`${server.url}/jobs?steps=1&interval=0`, { method: 'POST' });
  expect(started.status).toBe(202);
  const url = `${server.url}${started.headers.get('location')}/events`;
  const stream = await openSse(url);
  await stream.ended;
  expect(stream.events.map((event) => event.event ?? event.data)).toEqual(['{"step":1}', 'done']);
  return { url, first: stream.events[0]!.id! };
}

/** The status and problem code a resume is answered with ('a stream' for a 200, which is cut). */
async function resumed(url: string, headers: Record<string, string> = {}): Promise<[number, string]> {
  const abort = new AbortController();
  const answer = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  if (answer.status === 200) {
    abort.abort();
    return [200, 'a stream'];
  }
  return [answer.status, ((await answer.json()) as { code: string }).code];
}

beforeAll(() => redis.start());

describe('resuming a stream whose history was let go, on framework.broadcast.backend=redis', () => {
  /** The job's stream is gone: resumed with its first event's id or from the start, 404 at once. */
  async function expectGone(job: { url: string; first: string }): Promise<void> {
    expect(await resumed(job.url, { 'last-event-id': job.first })).toEqual([404, 'RXREST_STREAM_NOT_FOUND']);
    expect(await resumed(job.url)).toEqual([404, 'RXREST_STREAM_NOT_FOUND']);
  }

  it('answers 404 at once when the topic was let go past max-topics, with or without Last-Event-ID', async () => {
    const server = await samples({ 'framework.broadcast.max-topics': 3 });
    try {
      const jobs = [];
      for (let n = 0; n < 6; n++) jobs.push(await finishedJob(server));
      const newest = await openSse(jobs.at(-1)!.url);
      await newest.ended;
      expect(newest.events.map((event) => event.event ?? event.data)).toEqual(['{"step":1}', 'done']);
      await expectGone(jobs[0]!);
    } finally {
      await server.close();
    }
  });

  it('answers 404 at once when its events were dropped past retention.max-total-bytes', async () => {
    // A job keeps 21 bytes ({"step":1} and {"items":1}): 64 bytes hold the last three jobs' events.
    const server = await samples({ 'framework.broadcast.retention.max-total-bytes': 64 });
    try {
      const jobs = [];
      for (let n = 0; n < 5; n++) jobs.push(await finishedJob(server));
      await expectGone(jobs[0]!);
    } finally {
      await server.close();
    }
  });

  it('still answers a stream running on another instance, from its live events', async () => {
    const [producing, reading] = await Promise.all([samples({}), samples({})]);
    try {
      const started = await fetch(`${producing.url}/jobs?steps=1000&interval=20`, { method: 'POST' });
      expect(started.status).toBe(202);
      const elsewhere = await openSse(`${reading.url}${started.headers.get('location')}/events`);
      expect(elsewhere.status).toBe(200);
      await elsewhere.until((events) => events.length >= 2);
      elsewhere.cut();
      expect(elsewhere.events.slice(0, 2).every((event) => /^\{"step":\d+\}$/.test(event.data))).toBe(true);
    } finally {
      await Promise.all([producing.close(), reading.close()]);
    }
  });
});
