// The REST client's resuming on the Redis Streams backend, against a real redis-server and two samples instances in
// processes of their own: a job started on one instance is read through a proxy that cuts every connection after a
// few hundred bytes and sends each new one to the other instance, so every resume asks the other process, with the
// id of a Redis stream entry. Every step arrives once, in order.
import { lastValueFrom, toArray } from 'rxjs';
import { RestClient } from '../../lib/client';
import { JobResource } from '../../samples/jobs/job-resource';
import { cuttingProxy } from '../support/cutting-proxy';
import { redisServer } from '../support/redis-server';
import { startSamples, type SamplesProcess } from '../support/samples-process';
import { until } from '../support/until';

const redis = redisServer();
const instances: SamplesProcess[] = [];

beforeAll(async () => {
  await redis.start();
  const env = { FRAMEWORK_BROADCAST_BACKEND: 'redis-streams', FRAMEWORK_BROADCAST_REDIS_URL: redis.url };
  instances.push(...(await Promise.all([startSamples(env), startSamples(env)])));
  // Each instance takes jobs once its broadcast backend is connected to Redis (readiness says so).
  for (const instance of instances)
    await until(async () => ((await broadcastStatus(instance.url)) === 'UP' ? true : undefined), 'broadcast UP');
}, 90_000);

async function broadcastStatus(url: string): Promise<string | undefined> {
  const body = (await (await fetch(`${url}/q/health/ready`)).json()) as { checks: { name: string; status: string }[] };
  return body.checks.find((check) => check.name === 'broadcast')?.status;
}

afterAll(() => {
  for (const instance of instances) instance.crash();
});

describe('RestClient resuming on Redis Streams', () => {
  it('emits every step of a job once while each connection is cut and the next goes to the other instance', async () => {
    const [a, b] = instances as [SamplesProcess, SamplesProcess];
    const ports = [a, b].map((instance) => Number(new URL(instance.url).port));
    const proxy = await cuttingProxy(ports, { limit: 300 });
    try {
      // Paced at 50 ms a step (3 s in all), not 5: a client that a loaded machine attaches late gets the steps done by
      // then in one chunk, which the proxy passes whole, and a job all done before it came was cut only 3 times.
      const started = await fetch(`${a.url}/jobs?steps=60&interval=50`, { method: 'POST' });
      expect(started.status).toBe(202);
      const id = started.headers.get('location')!.split('/').pop()!;
      const jobs = RestClient.create(JobResource, { baseUrl: proxy.url, reconnect: { delay: 10 } });
      const items = await lastValueFrom(jobs.events(id).pipe(toArray()));
      expect(items).toEqual(Array.from({ length: 60 }, (_, n) => ({ step: n + 1 })));
      // Cut many times, each instance reading half of them; every resume carried the last Redis entry id received,
      // each later than the one before.
      expect(proxy.lastEventIds.length).toBeGreaterThan(5);
      expect(new Set(proxy.upstreams)).toEqual(new Set(ports));
      expect(proxy.lastEventIds[0]).toBeUndefined();
      const sent = proxy.lastEventIds.slice(1) as string[];
      expect(sent.every((entry) => /^\d+-\d+$/.test(entry))).toBe(true);
      const order = (entry: string) => entry.split('-').map(BigInt) as [bigint, bigint];
      for (let n = 1; n < sent.length; n++) {
        const [[ms, seq], [previousMs, previousSeq]] = [order(sent[n]!), order(sent[n - 1]!)];
        expect(ms > previousMs || (ms === previousMs && seq > previousSeq)).toBe(true);
      }
    } finally {
      proxy.server.close();
    }
  }, 60_000);
});
