// The samples' sockets as a client sees them, over real processes: `/ws/echo` on an instance of two workers (both
// serve sockets), `/ws/chat` across that instance and another on a real redis-server, and SIGTERM closing every
// socket with 1001 within a second.
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
    startSamples(shared),
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
    for (const [i, socket] of sockets.entries()) {
      socket.socket.send(`hello ${i}`);
      expect(await socket.next()).toBe(`hello ${i}`);
      socket.socket.send(JSON.stringify({ upper: `shout ${i}` }));
      expect(await socket.next()).toBe(`{"upper":"SHOUT ${i}"}`);
    }
    for (const socket of sockets) socket.socket.close();
    const plain = await fetch(`${workers.url}/ws/echo`);
    expect(plain.status).toBe(426);
  }, 30_000);

  it('/ws/chat sends every message to every socket of its room, on both instances (Redis Streams)', async () => {
    const room = `r${Date.now()}`;
    const here = openSocket(socketUrl(workers, `/ws/chat?room=${room}`));
    const there = openSocket(socketUrl(single, `/ws/chat?room=${room}`));
    const elsewhere = openSocket(socketUrl(single, `/ws/chat?room=other-${room}`));
    await Promise.all([here.opened, there.opened, elsewhere.opened]);
    // Subscribed once the socket is open; a message published right away could come before the other instance reads.
    await new Promise((resolve) => setTimeout(resolve, 300));
    here.socket.send(JSON.stringify({ user: 'ada', text: 'hi all' }));
    expect(JSON.parse(await here.next())).toEqual({ user: 'ada', text: 'hi all' });
    expect(JSON.parse(await there.next())).toEqual({ user: 'ada', text: 'hi all' });
    there.socket.send(JSON.stringify({ user: 'bob', text: '' }));
    expect(JSON.parse(await there.next())).toMatchObject({ status: 400, code: 'RXREST_VALIDATION_FAILED' });
    there.socket.send(JSON.stringify({ user: 'bob', text: 'back' }));
    expect(JSON.parse(await here.next())).toEqual({ user: 'bob', text: 'back' });
    expect(elsewhere.received).toEqual([]);
    for (const socket of [here, there, elsewhere]) socket.socket.close();
  }, 30_000);

  it('closes every socket with 1001 within a second of SIGTERM, and the process exits', async () => {
    const sockets: TestSocket[] = Array.from({ length: 20 }, (_, i) =>
      openSocket(socketUrl(single, i % 2 ? '/ws/echo' : '/ws/chat')),
    );
    await Promise.all(sockets.map((socket) => socket.opened));
    const signalled = Date.now();
    single.child.kill('SIGTERM');
    const closes = await Promise.all(sockets.map((socket) => socket.closed));
    expect(closes.every((closed) => closed.code === 1001 && closed.reason === 'Server shutting down')).toBe(true);
    expect(Date.now() - signalled).toBeLessThan(1_000);
    expect(await single.exited).toBe(0);
  }, 30_000);
});

/** The client's local port of a socket's connection. */
function localPort(socket: TestSocket): number {
  return (socket.socket as unknown as { _socket: { localPort: number } })._socket.localPort;
}
