// Refused credentials count against the client's address, over real sockets: wrong API keys and forged JWTs past
// framework.http.rate-limit.failed-authentications answer 429 with Retry-After — a right credential from that address
// too, until the window ends — in memory and shared by two instances on a real redis-server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type * as JoseModule from 'jose';
import {
  Authenticated,
  GET,
  Path,
  RateLimit,
  RestApplication,
  apiKeys,
  type RestApp,
  type RunningServer,
} from '../../lib';
import { withServer } from '../support/app';
import { send, type RawReply } from '../support/http';
import { redisServer } from '../support/redis-server';
import { until } from '../support/until';
import { tempDir } from '../support/temp-dir';

const jose = require('jose') as typeof JoseModule;

@Path('vault')
class VaultResource {
  @GET
  @Authenticated
  @RateLimit({ requests: 5, window: '60s' })
  open(): string {
    return 'opened';
  }

  @GET
  @Path('lobby')
  lobby(): string {
    return 'lobby';
  }
}

const keys = () => apiKeys({ keys: { 'right-key': { name: 'owner' } } });
const build = (overrides: Record<string, string> = {}): RestApp =>
  RestApplication.build({ classes: [VaultResource], overrides, authentication: [keys()] });

const withKey = (server: RunningServer, key: string, path = '/vault'): Promise<RawReply> =>
  send(`${server.url}${path}`, 'GET', { 'x-api-key': key });
const count = (replies: readonly RawReply[], status: number) =>
  replies.filter((reply) => reply.status === status).length;

/** A 429 for spent failures: Retry-After within the window, the policy named, problem JSON. */
function expectSpent(reply: RawReply, windowSeconds: number): void {
  expect(reply.status).toBe(429);
  const retryAfter = Number(reply.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(String(reply.headers['ratelimit-policy'])).toMatch(/^"failed-authentications";q=\d+;w=\d+$/);
  expect(JSON.parse(reply.body)).toMatchObject({ status: 429, code: 'RXREST_RATE_LIMITED' });
}

describe('refused credentials against rate limits', () => {
  const keysDir = tempDir('failed-auth');

  it('answers 429 once wrong API keys spent the budget, to the right key too, leaving requests without one alone', async () => {
    await withServer(build({ 'framework.http.rate-limit.failed-authentications': '10' }), async (server) => {
      const replies = await Promise.all(Array.from({ length: 40 }, (_, n) => withKey(server, `guess-${n}`)));
      expect([count(replies, 401), count(replies, 429)]).toEqual([10, 30]);
      expectSpent(
        replies.find((reply) => reply.status === 429)!,
        60,
      );
      // A right guess now gains nothing: the address answers 429 until the window ends.
      expectSpent(await withKey(server, 'right-key'), 60);
      // Requests without a credential are no refusal and are not held back.
      expect((await send(`${server.url}/vault/lobby`)).status).toBe(200);
    });
  });

  it('admits the address again once its window ended', async () => {
    const app = build({
      'framework.http.rate-limit.failed-authentications': '2',
      'framework.http.rate-limit.failed-authentications-window': '1s',
    });
    await withServer(app, async (server) => {
      const replies = [];
      for (const guess of ['guess-1', 'guess-2', 'guess-3']) replies.push((await withKey(server, guess)).status);
      expect(replies).toEqual([401, 401, 429]);
      expectSpent(await withKey(server, 'right-key'), 1);
      const admitted = await until(
        async () => ((await withKey(server, 'right-key')).status === 200 ? true : undefined),
        'the right key to be admitted after the window',
        5000,
        100,
      );
      expect(admitted).toBe(true);
      // The hold is gone, not only waited out: a wrong key is counted afresh (a 401, not a 429).
      expect((await withKey(server, 'guess-4')).status).toBe(401);
    });
  });

  it('counts 100 refusals a minute by default', async () => {
    await withServer(build(), async (server) => {
      const replies = await Promise.all(Array.from({ length: 130 }, (_, n) => withKey(server, `guess-${n}`)));
      expect([count(replies, 401), count(replies, 429)]).toEqual([100, 30]);
      expect(replies.find((reply) => reply.status === 429)!.headers['ratelimit-policy']).toBe(
        '"failed-authentications";q=100;w=60',
      );
    });
  });

  it('counts nothing with a budget of 0', async () => {
    await withServer(build({ 'framework.http.rate-limit.failed-authentications': '0' }), async (server) => {
      const replies = await Promise.all(Array.from({ length: 30 }, (_, n) => withKey(server, `guess-${n}`)));
      expect(count(replies, 401)).toBe(30);
      expect((await withKey(server, 'right-key')).status).toBe(200);
    });
  });

  it('counts forged JWTs the same, within a configured window', async () => {
    const trusted = await jose.generateKeyPair('ES256');
    const forger = await jose.generateKeyPair('ES256');
    const keyFile = join(keysDir, 'public.pem');
    writeFileSync(keyFile, await jose.exportSPKI(trusted.publicKey));
    const token = (key: JoseModule.CryptoKey) =>
      new jose.SignJWT({})
        .setProtectedHeader({ alg: 'ES256' })
        .setSubject('mallory')
        .setAudience('vault')
        .setExpirationTime('5m')
        .sign(key);
    const app = RestApplication.build({
      classes: [VaultResource],
      overrides: {
        'framework.security.jwt.public-key-file': keyFile,
        'framework.security.jwt.audience': 'vault',
        'framework.http.rate-limit.failed-authentications': '5',
        'framework.http.rate-limit.failed-authentications-window': '30s',
      },
    });
    await withServer(app, async (server) => {
      const bearer = async (key: JoseModule.CryptoKey) =>
        send(`${server.url}/vault`, 'GET', { authorization: `Bearer ${await token(key)}` });
      const replies: RawReply[] = [];
      for (let n = 0; n < 8; n++) replies.push(await bearer(forger.privateKey));
      expect(replies.map((reply) => reply.status)).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      expectSpent(replies[5]!, 30);
      expect(replies[5]!.headers['ratelimit-policy']).toBe('"failed-authentications";q=5;w=30');
      expect((await bearer(trusted.privateKey)).status).toBe(429);
    });
  });
});

describe('refused credentials on Redis', () => {
  const redis = redisServer();
  beforeAll(() => redis.start(), 20_000);
  afterAll(() => redis.kill());

  it('shares one count of refusals between two instances', async () => {
    const overrides = {
      'framework.http.rate-limit.backend': 'redis',
      'framework.http.rate-limit.redis.url': redis.url,
      'framework.http.rate-limit.failed-authentications': '10',
    };
    const apps = [build(overrides), build(overrides)];
    const servers = await Promise.all(
      apps.map((app) => app.listen({ port: 0, host: '127.0.0.1', handleSignals: false })),
    );
    const watcher = new Redis(redis.url);
    try {
      // Each instance opens its Redis connection with its first counted request and waits for it a second at most,
      // counting in memory after that; on a loaded machine the burst could beat the connection. One allowed request
      // each (1 of the endpoint's 5) opens both, and the burst starts once Redis sees them.
      for (const server of servers) expect((await withKey(server, 'right-key')).status).toBe(200);
      await until(async () => {
        const clients = String(await watcher.call('CLIENT', 'LIST'))
          .trim()
          .split('\n');
        return clients.length >= 3 ? true : undefined;
      }, 'both instances connected to Redis');
      const replies = await Promise.all(Array.from({ length: 30 }, (_, n) => withKey(servers[n % 2]!, `guess-${n}`)));
      expect([count(replies, 401), count(replies, 429)]).toEqual([10, 20]);
      // Each instance saw the budget spent: the right key is held back on both.
      for (const server of servers) expectSpent(await withKey(server, 'right-key'), 60);
    } finally {
      watcher.disconnect();
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});
