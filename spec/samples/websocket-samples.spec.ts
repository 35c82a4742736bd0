// The samples' sockets as a client sees them, over real processes: `/ws/echo` on an instance of two workers (both
// serve sockets), `/ws/chat` across that instance and another on a real redis-server, and SIGTERM closing every
// socket with 1001 at once (not at the end of the shutdown timeout).
import { pidServing, childPids } from '../support/process-sockets';
import { redisServer } from '../support/redis-server';
import { startSamples, type SamplesProcess } from '../support/samples-process';
import { openSocket, type TestSocket } from '../support/ws-client';
import { until } from '../support/until';

const redis = redisServer();
let workers: SamplesProcess;
let single: SamplesProcess;

const socketUrl = (instance: SamplesProcess, path: string) => instance.url.replace(/^http/, 'ws') + path;

beforeAll(async () => {
  await redis.start();
  const shared = { FRAMEWORK_BROADCAST_BACKEND: 'redis-streams', FRAMEWORK_BROADCAST_REDIS_URL: redis.url };
  [workers, single] = await Promise.all([
    startSamples({ ...shared, FRAMEWORK_HTTP_WORKERS: '2' }),
    // A shutdown timeout far above the bound the SIGTERM test puts on closing the sockets.
    startSamples({ ...shared, FRAMEWORK_SHUTDOWN_TIMEOUT: '120s' }),
  ]);
}, 60_000);

afterAll(() => {
  workers?.crash();
  single?.crash();
});

describe('the samples sockets', () => {
  it('/ws/echo answers text as it came and {"upper"} upper-cased, on both workers of an instance', async () => {
    const sockets = Array.from({ length: 10 }, () => openSocket(socketUrl(workers, '/ws/echo')));
    await Promise.all(sockets.map((socket) => socket.opened));
    const pids = await until(() => {
      const found = childPids(workers.child.pid!);
      return found.length === 2 ? found : undefined;
    }, 'two workers');
    const serving = new Set(sockets.map((socket) => pidServing(localPort(socket), pids)));
    expect(serving).toEqual(new Set(pids));
    // The ten sockets talk at once: one after the other, 20 round trips of up to a second each on a loaded machine
    // (load 20) took this test past its timeout twice in full runs.
    const answers = await Promise.all(
      sockets.map(async (socket, i) => {
        socket.socket.send(`hello ${i}`);
        const echoed = await socket.next();
        socket.socket.send(JSON.stringify({ upper: `shout ${i}` }));
        return [echoed, await socket.next()];
      }),
    );
    expect(answers).toEqual(sockets.map((_, i) => [`hello ${i}`, `{"upper":"SHOUT ${i}"}`]));
    for (const socket of sockets) socket.socket.close();
    const plain = await fetch(`${workers.url}/ws/echo`);
    expect(plain.status).toBe(426);
  }, 60_000);

  it('/ws/chat sends every message to every socket of its room, on both instances (Redis Streams)', async () => {
    const room = `r${Date.now()}`;
    const here = openSocket(socketUrl(workers, `/ws/chat?room=${room}`));
    const there = openSocket(socketUrl(single, `/ws/chat?room=${room}`));
    const elsewhere = openSocket(socketUrl(single, `/ws/chat?room=other-${room}`));
    await Promise.all([here.opened, there.opened, elsewhere.opened]);
    // Subscribed once the socket is open; a message published right away could come before the other instance reads.
    // So probes go until one reaches the other instance (not a guessed 300 ms); they are skipped below.
    const probe = JSON.stringify({ user: 'probe', text: 'anyone?' });
    const isProbe = (message: string) => (JSON.parse(message) as { user?: string }).user === 'probe';
    await until(
      () => (here.socket.send(probe), there.received.some(isProbe) ? true : undefined),
      'the other instance to read the room',
      15_000,
      100,
    );
    const next = async (socket: TestSocket): Promise<unknown> => {
      for (;;) {
        const message = await socket.next();
        if (!isProbe(message)) return JSON.parse(message);
      }
    };
    here.socket.send(JSON.stringify({ user: 'ada', text: 'hi all' }));
    expect(await next(here)).toEqual({ user: 'ada', text: 'hi all' });
    expect(await next(there)).toEqual({ user: 'ada', text: 'hi all' });
    there.socket.send(JSON.stringify({ user: 'bob', text: '' }));
    expect(await next(there)).toMatchObject({ status: 400, code: 'RXREST_VALIDATION_FAILED' });
    there.socket.send(JSON.stringify({ user: 'bob', text: 'back' }));
    expect(await next(here)).toEqual({ user: 'bob', text: 'back' });
    expect(elsewhere.received).toEqual([]);
    for (const socket of [here, there, elsewhere]) socket.socket.close();
  }, 30_000);

  it('closes every socket with 1001 at once on SIGTERM, not at the end of the shutdown timeout, and the process exits', async () => {
    const sockets: TestSocket[] = Array.from({ length: 20 }, (_, i) =>
      openSocket(socketUrl(single, i % 2 ? '/ws/echo' : '/ws/chat')),
    );
    await Promise.all(sockets.map((socket) => socket.opened));
    const signalled = Date.now();
    single.child.kill('SIGTERM');
    const closes = await Promise.all(sockets.map((socket) => socket.closed));
    expect(closes.every((closed) => closed.code === 1001 && closed.reason === 'Server shutting down')).toBe(true);
    // Far below the 120 s timeout the sockets would otherwise hold the process to; 1 s was tight for a loaded machine.
    expect(Date.now() - signalled).toBeLessThan(15_000);
    expect(await single.exited).toBe(0);
  }, 30_000);
});

/** The client's local port of a socket's connection. */
function localPort(socket: TestSocket): number {
  return (socket.socket as unknown as { _socket: { localPort: number } })._socket.localPort;
}
