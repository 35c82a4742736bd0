// Per-client limits over real sockets: a burst against a request limit, limits by principal, open streams per
// client, configured defaults, and one count shared by two instances on a real redis-server.
import { request } from 'node:http';
import { interval, map } from 'rxjs';
import {
  Authenticated,
  DefinitionError,
  GET,
  Path,
  Produces,
  RateLimit,
  RestApplication,
  apiKeys,
  multi,
  type Multi,
  type RunningServer,
} from '../../lib';
import { withServer } from '../support/app';
import { send, type RawReply as Reply } from '../support/http';
import { redisServer } from '../support/redis-server';

const get = (url: string, headers: Record<string, string> = {}): Promise<Reply> => send(url, 'GET', headers);
import { until } from '../support/until';

@Path('limited')
class LimitedResource {
  @GET
  @Path('burst')
  @RateLimit({ requests: 100, window: '10s' })
  burst(): string {
    return 'ok';
  }

  @GET
  @Path('mine')
  @Authenticated
  @RateLimit({ requests: 2, window: '10s' })
  mine(): string {
    return 'mine';
  }

  @GET
  @Path('ticks')
  @Produces('text/event-stream')
  @RateLimit({ streams: 5 })
  ticks(): Multi<{ tick: number }> {
    return multi(interval(50).pipe(map((tick) => ({ tick }))));
  }

  @GET
  @Path('plain')
  plain(): string {
    return 'plain';
  }
}

function serving(overrides: Record<string, string>, run: (server: RunningServer) => Promise<void>): Promise<void> {
  const keys = apiKeys({ keys: { 'key-a': { name: 'a' }, 'key-b': { name: 'b' } } });
  return withServer(RestApplication.build({ classes: [LimitedResource], overrides, authentication: [keys] }), run);
}

const count = (replies: readonly Reply[], status: number) => replies.filter((reply) => reply.status === status).length;

describe('@RateLimit', () => {
  it('answers exactly 100 of a burst of 200 against 100 per 10 s, the rest 429 with Retry-After and the RateLimit headers', async () => {
    await serving({}, async (server) => {
      const replies = await Promise.all(Array.from({ length: 200 }, () => get(`${server.url}/limited/burst`)));
      expect(count(replies, 200)).toBe(100);
      expect(count(replies, 429)).toBe(100);
      const refused = replies.find((reply) => reply.status === 429)!;
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(10);
      expect(refused.headers['ratelimit-policy']).toBe('"requests";q=100;w=10');
      expect(refused.headers.ratelimit).toMatch(/^"requests";r=0;t=\d+$/);
      expect(JSON.parse(refused.body)).toMatchObject({ status: 429, code: 'RXREST_RATE_LIMITED' });
      const remaining = replies
        .filter((reply) => reply.status === 200)
        .map((reply) => Number(/r=(\d+)/.exec(String(reply.headers.ratelimit))![1]));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, k) => k));
    });
  });

  it('counts each principal apart', async () => {
    await serving({}, async (server) => {
      const as = (key: string) => get(`${server.url}/limited/mine`, { 'x-api-key': key });
      expect([(await as('key-a')).status, (await as('key-a')).status, (await as('key-a')).status]).toEqual([
        200, 200, 429,
      ]);
      expect((await as('key-b')).status).toBe(200);
    });
  });

  it('refuses the 6th stream a client opens against 5, and frees a slot when a stream ends', async () => {
    await serving({}, async (server) => {
      const open = () =>
        new Promise<{ status: number; close: () => void }>((resolve, reject) => {
          const req = request(`${server.url}/limited/ticks`, { agent: false }, (res) => {
            res.resume();
            resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
          });
          req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
          req.end();
        });
      const streams = [];
      for (let n = 0; n < 5; n++) streams.push(await open());
      expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
      const sixth = await open();
      expect(sixth.status).toBe(429);
      sixth.close();
      streams[0]!.close();
      const again = await until(
        async () => {
          const attempt = await open();
          if (attempt.status === 200) return attempt;
          attempt.close();
          return undefined;
        },
        'a slot to be freed',
        5000,
      );
      for (const stream of [...streams.slice(1), again]) stream.close();
    });
  });

  it('applies framework.http.rate-limit.* to endpoints without @RateLimit', async () => {
    await serving(
      { 'framework.http.rate-limit.requests': '3', 'framework.http.rate-limit.window': '10s' },
      async (server) => {
        const replies = [];
        for (let n = 0; n < 4; n++) replies.push(await get(`${server.url}/limited/plain`));
        expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 429]);
        expect(replies[0]!.headers['ratelimit-policy']).toBe('"requests";q=3;w=10');
      },
    );
    await serving({}, async (server) => {
      const replies = await Promise.all(Array.from({ length: 20 }, () => get(`${server.url}/limited/plain`)));
      expect(count(replies, 200)).toBe(20);
      expect(replies[0]!.headers.ratelimit).toBeUndefined();
    });
  });

  it('refuses a window under a second at build, naming the method', () => {
    @Path('bad')
    class Bad {
      @GET @RateLimit({ requests: 1, window: '10ms' }) one() {
        return 1;
      }
    }
    expect(() => RestApplication.build({ classes: [Bad] })).toThrow(DefinitionError);
    expect(() => RestApplication.build({ classes: [Bad] })).toThrow(
      /Bad#one: @RateLimit window must be at least one second/,
    );
  });
});

@Path('pair')
@RateLimit({ requests: 1, window: '10s' })
class PairResource {
  @GET
  @Path('a')
  a(): string {
    return 'a';
  }

  @GET
  @Path('b')
  b(): string {
    return 'b';
  }
}

describe('rate limits on Redis', () => {
  const redis = redisServer();
  beforeAll(() => redis.start(), 20_000);
  afterAll(() => redis.kill());

  it('counts each method of a class-wide @RateLimit on its own', async () => {
    const overrides = {
      'framework.http.rate-limit.backend': 'redis',
      'framework.http.rate-limit.redis.url': redis.url,
    };
    const server = await RestApplication.build({ classes: [PairResource], overrides }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      const statuses = [];
      for (const path of ['a', 'b', 'a', 'b']) statuses.push((await get(`${server.url}/pair/${path}`)).status);
      expect(statuses).toEqual([200, 200, 429, 429]);
    } finally {
      await server.close();
    }
  });

  it('shares one count between two instances', async () => {
    const overrides = {
      'framework.http.rate-limit.backend': 'redis',
      'framework.http.rate-limit.redis.url': redis.url,
    };
    const authentication = [apiKeys({ keys: {} })];
    const apps = [1, 2].map(() => RestApplication.build({ classes: [LimitedResource], overrides, authentication }));
    const servers = await Promise.all(
      apps.map((app) => app.listen({ port: 0, host: '127.0.0.1', handleSignals: false })),
    );
    try {
      const replies = await Promise.all(
        Array.from({ length: 150 }, (_, n) => get(`${servers[n % 2]!.url}/limited/burst`)),
      );
      expect(count(replies, 200)).toBe(100);
      expect(count(replies, 429)).toBe(50);
      // Each instance answered some of the 100.
      for (const server of servers)
        expect(replies.some((reply, n) => reply.status === 200 && servers[n % 2] === server)).toBe(true);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});
