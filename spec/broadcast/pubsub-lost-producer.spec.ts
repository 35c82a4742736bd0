// On the Redis pub/sub backend, the readers of a resumable stream whose producer's process died end with
// `event: error` and `{"lost":true}`, as on Redis Streams, over real sockets with a real redis-server: the producer says
// every second that it runs (rxrest:producer:<topic>), and an instance with readers of the stream that finds it silent
// twice, 2 s apart, with no end heard, ends them. They used to wait forever (there is no shared history to end it in):
// a client reading a job whose instance was killed never learned it.
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { redisServer } from '../support/redis-server';
import { startSamples, type SamplesProcess } from '../support/samples-process';
import { openSse } from '../support/sse-client';
import { until } from '../support/until';

const redis = redisServer();
let producer: SamplesProcess;
let reading: RunningServer;

beforeAll(async () => {
  await redis.start();
  producer = await startSamples({ FRAMEWORK_BROADCAST_BACKEND: 'redis', FRAMEWORK_BROADCAST_REDIS_URL: redis.url });
  reading = await buildSamples({
    'framework.rest.sse.keep-alive': '0',
    'framework.broadcast.backend': 'redis',
    'framework.broadcast.redis.url': redis.url,
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  for (const url of [producer.url, reading.url])
    await until(async () => ((await fetch(`${url}/q/health/ready`)).ok ? true : undefined), 'Redis', 30_000);
}, 60_000);
afterAll(async () => {
  producer.crash();
  await reading.close();
});

describe('a resumable stream on redis pub/sub whose producer dies', () => {
  it('ends for the readers of another instance with event: error {"lost":true}', async () => {
    const started = await fetch(`${producer.url}/jobs?steps=100000&interval=20&grace=60000`, { method: 'POST' });
    expect(started.status).toBe(202);
    const reader = await openSse(`${reading.url}${started.headers.get('location')}/events`);
    expect(reader.status).toBe(200);
    await reader.until((events) => events.length >= 10);
    producer.crash();
    const crashed = Date.now();
    await Promise.race([reader.ended, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    expect(reader.events.at(-1)).toMatchObject({ event: 'error', data: '{"lost":true}' });
    // Its word lapses after 3 s, and two checks 2 s apart must both find it gone.
    expect(Date.now() - crashed).toBeLessThan(12_000);
    reader.cut();
  }, 40_000);
});
