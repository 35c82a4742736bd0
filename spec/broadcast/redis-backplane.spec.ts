// The Redis pub/sub backplane against a real redis-server: two samples processes on framework.broadcast.backend=redis,
// an SSE client on each; chat messages posted on either reach both, in one order. Redis killed mid-test: both
// readiness checks go DOWN, posting still answers 202 (delivered on its own instance) and nothing crashes; Redis
// back: UP again, every client is told with event: reset that it may have missed events, and messages reach both
// instances again.
import { request, type ClientRequest } from 'node:http';
import { childPids, pidServing } from '../support/process-sockets';
import { redisServer } from '../support/redis-server';
import { startSamples as startProcess, type SamplesProcess } from '../support/samples-process';
import { until, within } from '../support/until';

const redis = redisServer();

const startSamples = (env: Record<string, string> = {}): Promise<SamplesProcess> =>
  startProcess({ FRAMEWORK_BROADCAST_BACKEND: 'redis', FRAMEWORK_BROADCAST_REDIS_URL: redis.url, ...env });

/** The chat streams open, cut after the file (a test that failed mid-way leaves its clients connected). */
const chats = new Set<ClientRequest>();
afterAll(() => chats.forEach((req) => req.destroy()));

interface ChatClient {
  /** The client's end of the connection: which worker serves it is read from /proc. */
  readonly localPort: number;
  readonly messages: string[];
  /** The `event: reset` notices received. */
  readonly resets: string[];
  until(count: number): Promise<void>;
  close(): void;
}

function openChat(url: string): Promise<ChatClient> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/chat/stream`, { agent: false }, (res) => {
      const messages: string[] = [];
      const resets: string[] = [];
      const waiters: (() => void)[] = [];
      res.setEncoding('utf8');
      let pending = '';
      res.on('data', (chunk: string) => {
        const events = (pending + chunk).split('\n\n');
        pending = events.pop()!;
        for (const event of events) {
          const data = event
            .split('\n')
            .find((line) => line.startsWith('data:'))
            ?.slice(5);
          if (data === undefined) continue;
          if (event.includes('event:reset')) resets.push(data);
          else messages.push((JSON.parse(data) as { text: string }).text);
        }
        waiters.splice(0).forEach((wake) => wake());
      });
      res.on('error', () => undefined);
      resolve({
        localPort: res.socket.localPort!,
        messages,
        resets,
        until: (count) =>
          within(
            (async () => {
              while (messages.length < count) await new Promise<void>((wake) => waiters.push(wake));
            })(),
            `${count} chat messages on ${url}`,
          ),
        close: () => req.destroy(),
      });
    });
    chats.add(req);
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

// Each post on a connection of its own: a pooled one left idle while the clients opened may be closed by the
// server's keep-alive timeout just as the pool reuses it ("other side closed", seen in a loaded full run).
const post = (url: string, text: string) => within(answer(url, text), `the answer to the post of ${text}`);

const answer = (url: string, text: string) =>
  new Promise<{ status: number }>((resolve, reject) => {
    const body = JSON.stringify({ user: 'spec', text });
    const req = request(
      `${url}/chat/messages`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode! }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

async function readiness(url: string): Promise<{ status: number; broadcast: string | undefined }> {
  const res = await fetch(`${url}/q/health/ready`);
  const body = (await res.json()) as { checks: { name: string; status: string }[] };
  return { status: res.status, broadcast: body.checks.find((check) => check.name === 'broadcast')?.status };
}

describe('broadcast over Redis, across two instances', () => {
  let a: SamplesProcess;
  let b: SamplesProcess;
  beforeAll(async () => {
    await redis.start();
    [a, b] = await Promise.all([startSamples(), startSamples()]);
  }, 30_000);
  afterAll(() => {
    a?.crash();
    b?.crash();
  });

  it('delivers messages posted on either instance to the clients of both, in one order; survives a Redis outage', async () => {
    for (const instance of [a, b])
      await until(async () => ((await readiness(instance.url)).broadcast === 'UP' ? true : undefined), 'readiness UP');
    const onA = await within(openChat(a.url), 'the chat stream of instance a');
    const onB = await within(openChat(b.url), 'the chat stream of instance b');
    for (let n = 0; n < 10; n++) expect((await post(n % 2 ? b.url : a.url, `m${n}`)).status).toBe(202);
    await Promise.all([onA.until(10), onB.until(10)]);
    expect(onA.messages).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
    expect(onB.messages).toEqual(onA.messages);

    await redis.kill();
    for (const instance of [a, b]) {
      const down = await until(async () => {
        const ready = await readiness(instance.url);
        return ready.broadcast === 'DOWN' ? ready : undefined;
      }, 'readiness DOWN');
      expect(down.status).toBe(503);
    }
    // Posting never fails the request; meanwhile a message reaches the clients of its own instance.
    expect((await post(a.url, 'during the outage')).status).toBe(202);
    await onA.until(11);
    expect(onA.messages.at(-1)).toBe('during the outage');
    expect(a.output()).toContain('is unreachable');

    await redis.start();
    for (const instance of [a, b])
      await until(
        async () => ((await readiness(instance.url)).status === 200 ? true : undefined),
        'readiness UP again',
      );
    // Neither instance knows what the other published meanwhile: every client is told it may have missed events.
    await until(() => (onA.resets.length > 0 && onB.resets.length > 0 ? true : undefined), 'a reset on both clients');
    expect(onB.messages).not.toContain('during the outage');
    expect((await post(b.url, 'after the outage')).status).toBe(202);
    await Promise.all([onA.until(12), onB.until(11)]);
    expect(onA.messages.at(-1)).toBe('after the outage');
    expect(onB.messages.at(-1)).toBe('after the outage');
    expect(a.output()).toContain('connected to Redis at redis://127.0.0.1');
    onA.close();
    onB.close();

    // A clean stop lets go of the Redis connections: both exit with code 0.
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
  }, 60_000);
});

describe('broadcast over Redis with framework.http.workers=2', () => {
  let instance: SamplesProcess;
  beforeAll(async () => {
    if (!redis.port) await redis.start();
    instance = await startSamples({ FRAMEWORK_HTTP_WORKERS: '2' });
  }, 30_000);
  afterAll(() => instance?.crash());

  it('reaches the clients of every worker (each worker is an instance)', async () => {
    await until(async () => ((await readiness(instance.url)).broadcast === 'UP' ? true : undefined), 'readiness UP');
    // The primary hands connections to the workers in turn: four clients land on both workers (read from /proc).
    const clients = await within(
      Promise.all(Array.from({ length: 4 }, () => openChat(instance.url))),
      'four chat streams',
    );
    const workers = childPids(instance.child.pid!);
    expect(workers).toHaveLength(2);
    expect(new Set(clients.map((client) => pidServing(client.localPort, workers)))).toEqual(new Set(workers));
    for (let n = 0; n < 3; n++) expect((await post(instance.url, `w${n}`)).status).toBe(202);
    await Promise.all(clients.map((client) => client.until(3)));
    for (const client of clients) expect(client.messages).toEqual(['w0', 'w1', 'w2']);
    clients.forEach((client) => client.close());
    instance.child.kill('SIGTERM');
    expect(await instance.exited).toBe(0);
  }, 60_000);
});
