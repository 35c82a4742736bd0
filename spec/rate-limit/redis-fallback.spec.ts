// Rate limits on Redis while Redis is down, over real sockets and a real redis-server killed mid-run: the count goes
// on in each process's memory (answers come at once, 200 within the limit and 429 past it, never a 500 or a hang),
// and back on Redis once it returns. A Redis that hangs with its connections open is waited for a second at most.
import { Redis } from 'ioredis';
import { GET, Path, RateLimit, RestApplication, type RunningServer } from '../../lib';
import { send } from '../support/http';
import { redisServer } from '../support/redis-server';
import { until } from '../support/until';

@Path('metered')
class MeteredResource {
  @GET
  @RateLimit({ requests: 5, window: '60s' })
  take(): string {
    return 'ok';
  }

  @GET
  @Path('again')
  @RateLimit({ requests: 5, window: '60s' })
  again(): string {
    return 'ok';
  }
}

/** The statuses of `count` requests in turn, and the longest any of them took (ms). */
async function burst(
  server: RunningServer,
  count: number,
  path = '/metered',
): Promise<{ statuses: number[]; slowestMs: number }> {
  const statuses: number[] = [];
  let slowestMs = 0;
  for (let n = 0; n < count; n++) {
    const started = Date.now();
    statuses.push((await send(`${server.url}${path}`)).status);
    slowestMs = Math.max(slowestMs, Date.now() - started);
  }
  return { statuses, slowestMs };
}

const LIMITED = [200, 200, 200, 200, 200, 429, 429];

describe('rate limits while Redis is down', () => {
  const redis = redisServer();
  let server: RunningServer;
  let probe: Redis;

  beforeAll(async () => {
    await redis.start();
    probe = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1, disconnectTimeout: 200 });
    const overrides = {
      'framework.http.rate-limit.backend': 'redis',
      'framework.http.rate-limit.redis.url': redis.url,
    };
    server = await RestApplication.build({ classes: [MeteredResource], overrides }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
  }, 20_000);

  afterAll(async () => {
    await server.close();
    probe.disconnect();
    await redis.kill();
  });

  /** The counts the limiter keeps in Redis (its keys and their values). */
  const countsInRedis = async (): Promise<string[]> => {
    const keys = await probe.keys('rxrest:rl:*');
    return Promise.all(keys.map(async (key) => `${await probe.get(key)}`));
  };

  it('counts on Redis, then in memory while it is down, then on Redis again once it is back', async () => {
    await probe.connect();
    expect((await burst(server, 7)).statuses).toEqual(LIMITED);
    expect(await countsInRedis()).toEqual(['7']);
    probe.disconnect();

    await redis.kill();
    // Each process counts on its own meanwhile, from zero: the limit still holds, and no answer waits for Redis.
    const during = await burst(server, 7);
    expect(during.statuses).toEqual(LIMITED);
    expect(during.slowestMs).toBeLessThan(2_000);

    // A Redis that lost its data: the limiter reconnects and counts there again.
    redis.wipe();
    await redis.start();
    await probe.connect();
    await until(
      async () => {
        await send(`${server.url}/metered`);
        return (await countsInRedis()).length > 0 || undefined;
      },
      'the count to be back on Redis',
      15_000,
    );
    expect((await countsInRedis()).map(Number)[0]).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it('counts in memory while Redis hangs, each answer waiting for it a second at most', async () => {
    // Another method: a count of its own, on Redis and in memory.
    expect((await burst(server, 1, '/metered/again')).statuses).toEqual([200]);
    redis.freeze();
    try {
      const during = await burst(server, 7, '/metered/again');
      expect(during.statuses).toEqual(LIMITED);
      expect(during.slowestMs).toBeLessThan(2_500);
    } finally {
      redis.thaw();
    }
  }, 40_000);
});
