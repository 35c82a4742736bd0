// The attack list of a hostile client, replayed against the samples as `npm start` runs them (a process of their own,
// broadcast on Redis Streams with a real redis-server, behind one proxy that appends X-Forwarded-For), over real
// sockets: each trick gets its refusal, and the server's RSS and Redis's memory stay within the configured bounds
// however much was thrown at them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type * as JoseModule from 'jose';
import { DEV_AUDIENCE, DEV_ISSUER, devToken } from '../../samples/security/mint-token';
import { postBody } from '../support/http';
import { redisServer } from '../support/redis-server';
import { startSamples, type SamplesProcess } from '../support/samples-process';
import { openSse } from '../support/sse-client';
import { until } from '../support/until';
import { openSocket, Refused } from '../support/ws-client';

const jose = require('jose') as typeof JoseModule;

/** Bounds the samples run with here, small enough for the floods below to reach them. */
const MAX_TOPICS = 100;
const RETENTION_BYTES = 256 * 1024;
const TOTAL_BYTES = 16 * 1024 * 1024;
const FAILED_AUTHENTICATIONS = 100;

const redis = redisServer();
let samples: SamplesProcess;
let redisClient: Redis;
let port: number;

beforeAll(async () => {
  await redis.start();
  samples = await startSamples({
    FRAMEWORK_BROADCAST_BACKEND: 'redis-streams',
    FRAMEWORK_BROADCAST_REDIS_URL: redis.url,
    FRAMEWORK_BROADCAST_MAX_TOPICS: String(MAX_TOPICS),
    FRAMEWORK_BROADCAST_RETENTION_MAX_BYTES: String(RETENTION_BYTES),
    FRAMEWORK_BROADCAST_RETENTION_MAX_TOTAL_BYTES: String(TOTAL_BYTES),
    FRAMEWORK_HTTP_PROXY_PROXY_ADDRESS_FORWARDING: 'true',
  });
  port = Number(new URL(samples.url).port);
  // No reconnecting once the server is stopped after the specs.
  redisClient = new Redis(redis.url, { retryStrategy: () => null });
  await until(
    async () =>
      ((await (await fetch(`${samples.url}/q/health/ready`)).json()) as { status: string }).status === 'UP' ||
      undefined,
    'the samples ready on Redis',
  );
}, 90_000);
afterAll(async () => {
  samples?.crash();
  await samples?.exited;
  redisClient?.disconnect();
});

/** Each scenario is a client of its own behind the proxy, so that one's held-back address never meets another's. */
const from = (client: string) => ({ 'x-forwarded-for': client });

/** The server process's resident memory, in bytes. */
function rss(): number {
  const status = readFileSync(`/proc/${samples.child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

async function redisMemory(): Promise<number> {
  const info = await redisClient.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)![1]);
}

/** A token signed with the samples' development key with whatever claims a forger chose. */
async function signed(claims: JoseModule.JWTPayload): Promise<string> {
  const folder = join(__dirname, '..', '..', 'samples', 'security');
  const key = await jose.importPKCS8(readFileSync(join(folder, 'dev-private-key.pem'), 'utf8'), 'ES256');
  return new jose.SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).sign(key);
}

const now = () => Math.floor(Date.now() / 1000);
const base = { iss: DEV_ISSUER, aud: DEV_AUDIENCE, iat: now() - 1 };

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${samples.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

const codeOf = async (response: Response) => ((await response.json()) as { code?: string }).code;

describe('the samples under attack', () => {
  let rssBefore: number;
  let redisBefore: number;
  beforeAll(async () => {
    rssBefore = rss();
    redisBefore = await redisMemory();
  });

  it('refuse prototype-poisoning keys however JSON escapes spell them, in bodies, items and socket messages', async () => {
    for (const body of [
      '{"name":"x","\\u005f_proto__":{"p":1}}',
      '{"name":"x","\\u0063onstructor":{"prototype":{"p":1}}}',
      '{"name":"x","description":"d","__proto__":{"groups":["admin"]}}',
    ]) {
      const refused = await post('/fruits', body);
      expect([body, refused.status, await codeOf(refused)]).toEqual([body, 400, 'RXREST_FORBIDDEN_PROPERTY']);
    }
    const items = await post('/fruits/import', '{"name":"ok"}\n{"name":"x","\\u005f_proto__":{"p":1}}\n', {
      'content-type': 'application/x-ndjson',
    });
    expect([items.status, await codeOf(items)]).toEqual([400, 'RXREST_FORBIDDEN_PROPERTY']);
    const socket = openSocket(`ws://127.0.0.1:${port}/ws/chat?room=poison`);
    await socket.opened;
    socket.socket.send('{"user":"x","text":"y","\\u005f_proto__":{"groups":["admin"]}}');
    expect((JSON.parse(await socket.next()) as { code: string }).code).toBe('RXREST_FORBIDDEN_PROPERTY');
    socket.socket.close();
    // Nothing was polluted: a token without a groups claim is still no admin.
    const plain = await signed({ ...base, sub: 'mallory', exp: now() + 600 });
    const stats = await fetch(`${samples.url}/admin/stats`, {
      headers: { authorization: `Bearer ${plain}`, ...from('192.0.2.1') },
    });
    expect(stats.status).toBe(403);
  });

  it('refuse 9 MB publishes with 413 before reading them, and keep at most retention.max-bytes of a flood on Redis', async () => {
    const huge = Buffer.from(JSON.stringify({ user: 'flood', text: 'x'.repeat(9 * 1024 * 1024) }));
    for (let n = 0; n < 20; n++) {
      const answer = await postBody(port, '/chat/messages', { 'content-type': 'application/json' }, huge);
      expect([n, answer.status, (JSON.parse(answer.body) as { code: string }).code]).toEqual([
        n,
        413,
        'RXREST_BODY_TOO_LARGE',
      ]);
    }
    // 600 messages of 2,000 characters (1.2 MB) are taken; the topic keeps at most 256K of them.
    const text = 'y'.repeat(2000);
    const taken = new Map<string, number>();
    // Each on a connection of its own: a pooled one left idle while the 9 MB bodies went out may be closed by the
    // server's keep-alive timeout just as the pool reuses it ("other side closed", seen once in a loaded full run).
    for (let n = 0; n < 600; n++) {
      const message = Buffer.from(JSON.stringify({ user: `u${n % 7}`, text }));
      const answer = await postBody(port, '/chat/messages', { 'content-type': 'application/json' }, message);
      const seen = `${answer.status} ${answer.status === 202 ? '' : answer.body}`;
      taken.set(seen, (taken.get(seen) ?? 0) + 1);
    }
    expect([...taken]).toEqual([['202 ', 600]]);
    const bytes = Number(await redisClient.get('rxrest:bytes:chat'));
    expect(bytes).toBeGreaterThan(RETENTION_BYTES / 2);
    expect(bytes).toBeLessThanOrEqual(RETENTION_BYTES);
  }, 60_000);

  it('answer a bogus Last-Event-ID with a 400 problem, not everything held', async () => {
    for (const id of ['abc', '$', '+', '-', '0-0-0', '9'.repeat(40)]) {
      const resumed = await fetch(`${samples.url}/chat/stream`, {
        headers: { accept: 'text/event-stream', 'last-event-id': id },
      });
      expect([id, resumed.status, await codeOf(resumed)]).toEqual([id, 400, 'RXREST_MALFORMED_LAST_EVENT_ID']);
    }
  });

  it('let go of 200 random rooms, refuse one past max-topics with the reason, and leave no key for rooms left', async () => {
    const room = (n: number) => `ws://127.0.0.1:${port}/ws/chat?room=r${n}-${Math.random().toString(36).slice(2, 10)}`;
    /** Opens rooms until one is refused (or `count` are open): the sockets open, and how the refused one closed. */
    async function fill(first: number, count: number) {
      const open = [];
      for (let n = first; n < first + count; n++) {
        const socket = openSocket(room(n));
        await socket.opened;
        // A message that is no chat message is answered on the socket, and publishes nothing; a refused room closes.
        socket.socket.send('{}');
        const answer = await Promise.race([socket.next(), socket.closed]);
        if (typeof answer !== 'string' || (JSON.parse(answer) as { code: string }).code !== 'RXREST_VALIDATION_FAILED')
          return { open, refused: await socket.closed, answer };
        open.push(socket);
      }
      return { open, refused: undefined, answer: undefined };
    }
    const first = await fill(0, MAX_TOPICS + 1);
    expect(first.answer).toBeDefined();
    expect(first.refused?.code).toBe(1013);
    expect(first.refused?.reason).toContain('framework.broadcast.max-topics');
    // The chat topic and the sockets' rooms share the limit.
    expect(first.open.length).toBeGreaterThan(MAX_TOPICS - 5);
    expect(first.open.length).toBeLessThanOrEqual(MAX_TOPICS);
    for (const socket of first.open) socket.socket.close();
    await Promise.all(first.open.map((socket) => socket.closed));
    // Every room was let go: as many new rooms open again.
    const again = await fill(1000, first.open.length);
    expect([again.open.length, again.refused]).toEqual([first.open.length, undefined]);
    for (const socket of again.open) socket.socket.close();
    await Promise.all(again.open.map((socket) => socket.closed));
    await until(
      async () => ((await redisClient.keys('rxrest:*ws-chat/r*')).length === 0 ? true : undefined),
      'no key left of the rooms',
    );
  }, 60_000);

  it('hold back forged credentials past the failed-authentication budget (429, Retry-After), from the right of X-Forwarded-For', async () => {
    const other = await jose.generateKeyPair('ES256');
    const foreign = await new jose.SignJWT({ ...base, sub: 'mallory', exp: now() + 600 })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(other.privateKey);
    const forged = [foreign, 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.', 'not-a-token'];
    const statuses: number[] = [];
    for (let n = 0; n < FAILED_AUTHENTICATIONS; n++) {
      const answer = await fetch(`${samples.url}/me`, {
        headers: { authorization: `Bearer ${forged[n % 3]}`, ...from('198.51.100.7') },
      });
      statuses.push(answer.status);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    // A new value on the left of the header per request is still the same client: the proxy's entry is on the right.
    const spoofed = await fetch(`${samples.url}/me`, {
      headers: { authorization: `Bearer ${foreign}`, 'x-forwarded-for': '203.0.113.99, 198.51.100.7' },
    });
    expect(spoofed.status).toBe(429);
    expect(Number(spoofed.headers.get('retry-after'))).toBeGreaterThan(0);
    // Held back before its credential is checked, a right one too; another client is not.
    const right = await devToken('alice', ['user']);
    const held = await fetch(`${samples.url}/me`, {
      headers: { authorization: `Bearer ${right}`, ...from('198.51.100.7') },
    });
    expect(held.status).toBe(429);
    const elsewhere = await fetch(`${samples.url}/me`, {
      headers: { authorization: `Bearer ${right}`, ...from('198.51.100.8') },
    });
    expect(elsewhere.status).toBe(200);
  }, 60_000);

  it('refuse a cross-origin WebSocket upgrade with 403, and open one from the page of its own origin', async () => {
    const evil = openSocket(`ws://127.0.0.1:${port}/ws/echo`, { origin: 'https://evil.example' });
    const refused = await evil.opened.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(Refused);
    expect((refused as Refused).status).toBe(403);
    const own = openSocket(`ws://127.0.0.1:${port}/ws/echo`, { origin: `http://127.0.0.1:${port}` });
    await own.opened;
    own.socket.close();
  });

  it('take a string roles claim as one role: groups "Finance admin" is not admin', async () => {
    const token = await signed({ ...base, sub: 'fin', exp: now() + 600, groups: 'Finance admin' });
    const headers = { authorization: `Bearer ${token}`, ...from('192.0.2.2') };
    expect((await fetch(`${samples.url}/admin/stats`, { headers })).status).toBe(403);
    expect(await (await fetch(`${samples.url}/me`, { headers })).json()).toEqual({
      name: 'fin',
      roles: ['Finance admin'],
    });
  });

  it('check every item of a typed body: 123, {} and null are not strings (400 before the first answer byte)', async () => {
    const answer = await post('/streams/uppercase', '123\n{}\nnull\n', { 'content-type': 'application/x-ndjson' });
    expect([answer.status, await codeOf(answer)]).toEqual([400, 'RXREST_MALFORMED_BODY']);
  });

  it('keep a socket open for a token that expires in 1e15 seconds', async () => {
    const token = await signed({ ...base, sub: 'long', exp: 1e15 });
    const socket = openSocket(`ws://127.0.0.1:${port}/ws/echo`, {
      headers: { authorization: `Bearer ${token}`, ...from('192.0.2.3') },
    });
    await socket.opened;
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.socket.send('still here');
    expect(await socket.next()).toBe('still here');
    socket.socket.close();
    expect((await socket.closed).code).toBe(1005);
  });

  it('refuse the timer and job values that grew memory without bound', async () => {
    const job = await fetch(`${samples.url}/jobs?steps=1000000&interval=0&grace=3600000`, { method: 'POST' });
    expect(job.status).toBe(400);
    expect((await fetch(`${samples.url}/streams/ticks?intervalMs=99999999999`)).status).toBe(400);
    const stream = await openSse(`${samples.url}/streams/ticks?count=2&intervalMs=10`);
    await stream.ended;
    expect(stream.events.map((event) => event.data)).toEqual(['0', '1']);
  });

  it('stay within the configured bounds: RSS grew by less than the history budget and slack, Redis by less than its topics keep', async () => {
    const grown = rss() - rssBefore;
    expect(grown).toBeLessThan(TOTAL_BYTES + 100 * 1024 * 1024);
    // The chat's history (256K) and the rooms' nothing, with Redis's own bookkeeping.
    expect((await redisMemory()) - redisBefore).toBeLessThan(8 * 1024 * 1024);
  });
});
