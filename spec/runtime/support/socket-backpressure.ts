/**
 * WebSocket backpressure on a runtime that upgrades sockets itself (Bun, Deno): a client that stops reading holds
 * back a pulled source, and a pushed one is held under the stream budget where the overflow policy applies, as on
 * Node; the server's memory stays bounded while it sends hundreds of megabytes.
 */
import { readFileSync } from 'node:fs';
import { call } from './contract';
import { openDeafSocket } from './deaf-socket';
import { startOn, type RuntimeServer } from './runtime-server';

/** 20,000 messages of 16 KB: 328 MB, far more than the kernel's buffers and the budget. */
const COUNT = 20_000;
const TOTAL = COUNT * 16_384;
const BUDGET = 1024 * 1024;
/** What the server's RSS may grow by while it sends all that to a client that reads nothing. */
const RSS_GROWTH = 64 * 1024 * 1024;

const FIXTURE = { file: 'backpressure-app', build: 'buildBackpressureApp' };

interface Produced {
  readonly opened: number;
  readonly pulled: number;
  readonly pushed: number;
  readonly pushedEnded: boolean;
}

/** The runtime process's resident memory, in bytes. */
function rssOf(server: RuntimeServer): number {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

async function producedOn(server: RuntimeServer): Promise<Produced> {
  return JSON.parse((await call(`${server.url}/backpressure/produced`)).body.toString()) as Produced;
}

/** Waits until the server produced every message, or `count` stopped growing for a second. */
async function settle(server: RuntimeServer, count: (produced: Produced) => number): Promise<void> {
  let last = -1;
  let stillSince = Date.now();
  for (;;) {
    const produced = await producedOn(server);
    if (count(produced) >= COUNT) return;
    if (count(produced) !== last) [last, stillSince] = [count(produced), Date.now()];
    else if (Date.now() - stillSince > 1_000) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const numberOf = (message: string): number => Number(message.split(':')[0]);

async function until(what: string, holds: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The specs on `runtime`: one server under drop-oldest, one under fail, both with a 1 MB budget. */
export function describeSocketBackpressure(runtime: 'bun' | 'deno'): void {
  describe(`a WebSocket whose client stops reading, on ${runtime}`, () => {
    let dropping: RuntimeServer;
    let failing: RuntimeServer;
    const budget = (overflow: string) => ({
      fixture: FIXTURE,
      overrides: { 'framework.rest.stream.buffer-size': '1M', 'framework.rest.stream.overflow': overflow },
    });
    const socketUrl = (server: RuntimeServer, path: string) => `${server.url.replace(/^http/, 'ws')}${path}`;

    beforeAll(async () => {
      [dropping, failing] = await Promise.all([
        startOn(runtime, budget('drop-oldest')),
        startOn(runtime, budget('fail')),
      ]);
    }, 60_000);

    afterAll(() => Promise.all([dropping?.stop(), failing?.stop()]));

    it.each([
      ['a message method', 'pulled'],
      ['@OnOpen, before the runtime opened the socket', 'opened'],
    ] as const)(
      'stops pulling a generator answered by %s while the client reads nothing, then sends every message',
      async (_, kind) => {
        const before = rssOf(dropping);
        const socket = await openDeafSocket(socketUrl(dropping, `/backpressure/${kind}/${COUNT}`), 'go');
        await settle(dropping, (produced) => produced[kind]);
        const pulled = (await producedOn(dropping))[kind];
        const grown = rssOf(dropping) - before;
        expect({ pulled: pulled < COUNT / 4, grown: grown < RSS_GROWTH }).toEqual({ pulled: true, grown: true });
        socket.listen();
        await until('every message', () => socket.messages.length >= COUNT);
        expect(socket.messages.every((message, n) => numberOf(message) === n)).toBe(true);
        socket.cut();
      },
      120_000,
    );

    it('under drop-oldest, keeps the newest messages that fit the budget and sends them after what the socket held', async () => {
      const before = rssOf(dropping);
      const socket = await openDeafSocket(socketUrl(dropping, `/backpressure/pushed/${COUNT}`), 'go');
      await settle(dropping, (produced) => produced.pushed);
      expect((await producedOn(dropping)).pushed).toBe(COUNT);
      const grown = rssOf(dropping) - before;
      expect(grown).toBeLessThan(RSS_GROWTH);
      socket.listen();
      await until('the last message', () => socket.messages.some((message) => numberOf(message) === COUNT - 1));
      const numbers = socket.messages.map(numberOf);
      // What the socket had taken arrives first, in order from 0; then the newest messages, in order up to the last.
      const early = numbers.findIndex((number, n) => number !== n);
      const kept = numbers.slice(early);
      expect(numbers.slice(0, early)).toEqual(numbers.slice(0, early).map((_, n) => n));
      expect(kept).toEqual(kept.map((_, n) => COUNT - kept.length + n));
      // Far less than what was sent reached the client: the rest was dropped, oldest first, past the budget.
      expect(numbers.length * 16_384).toBeLessThan(TOTAL / 4);
      expect(kept.length * 16_384).toBeLessThanOrEqual(BUDGET);
      socket.cut();
    }, 120_000);

    it('under fail, stops the source at the budget and closes with 1011 once the client reads again', async () => {
      const before = rssOf(failing);
      const socket = await openDeafSocket(socketUrl(failing, `/backpressure/pushed/${COUNT}`), 'go');
      await settle(failing, (produced) => produced.pushed);
      const produced = await producedOn(failing);
      const grown = rssOf(failing) - before;
      expect({ ended: produced.pushedEnded, stopped: produced.pushed < COUNT / 4, grown: grown < RSS_GROWTH }).toEqual({
        ended: true,
        stopped: true,
        grown: true,
      });
      socket.listen();
      expect(await socket.closed).toBe(1011);
      const numbers = socket.messages.map(numberOf).filter((number) => !Number.isNaN(number));
      expect(numbers).toEqual(numbers.map((_, n) => n));
    }, 120_000);
  });
}
