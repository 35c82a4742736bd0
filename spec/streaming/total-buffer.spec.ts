// The total budget of an application's outgoing streams (`framework.rest.stream.total-buffer-size`), over real
// sockets: clients that open endless fast streams and never read are cut (or dropped) once the streams together hold
// the total, while a client that reads keeps streaming; the held bytes, seen through the metrics' gauge, stay within
// the total and are all let go once the clients leave.
import { get, type ClientRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Observable } from 'rxjs';
import {
  GET,
  OnOpen,
  Path,
  Produces,
  StreamBuffer,
  WebSocketEndpoint,
  multi,
  type Multi,
  type RunningServer,
} from '../../lib';
import type { RestApp } from '../../lib';
import { buildApp } from '../support/app';
import { until, within } from '../support/until';
import { openSocket, type TestSocket } from '../support/ws-client';

const TOTAL = 8 * 1024 * 1024;
// What the total may pass by: the one write each stream makes before it finds its socket full (a tick's batch).
const CHUNK = 64 * 1024;
const HOARDERS = 20;
const PAD = 'p'.repeat(1000);

/** The sources subscribed now, by name. */
const live = new Map<string, number>();

/** An endless fast Observable: 8 items of about 1 KB every millisecond, with no regard for the reader. */
function endless(name: string): Multi<{ i: number; pad: string }> {
  return multi(
    new Observable<{ i: number; pad: string }>((subscriber) => {
      let i = 0;
      live.set(name, (live.get(name) ?? 0) + 1);
      const timer = setInterval(() => {
        for (let k = 0; k < 8; k++) subscriber.next({ i: i++, pad: PAD });
      }, 1);
      return () => {
        clearInterval(timer);
        live.set(name, live.get(name)! - 1);
      };
    }),
  );
}

@Path('total')
class Feeds {
  @GET
  @Path('fail')
  @Produces('text/event-stream')
  fail(): Multi<unknown> {
    return endless('fail');
  }

  @GET
  @Path('drop')
  @Produces('text/event-stream')
  @StreamBuffer({ overflow: 'drop-oldest' })
  drop(): Multi<unknown> {
    return endless('drop');
  }
}

@WebSocketEndpoint('/total/ws')
class FeedSocket {
  @OnOpen
  open(): Multi<unknown> {
    return endless('ws');
  }
}

const settings = {
  'framework.rest.stream.total-buffer-size': '8M',
  'framework.rest.stream.buffer-size': '4M',
  'framework.rest.sse.keep-alive': 0,
  'framework.metrics.enabled': true,
};

let app: RestApp;
let server: RunningServer;
beforeAll(async () => {
  app = buildApp([Feeds, FeedSocket], settings);
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

/** The bytes `app`'s streams hold, read from its metrics. */
async function held(of: RestApp = app): Promise<number> {
  const metric = await of.metrics!.getSingleMetric('rxrest_stream_buffered_bytes')!.get();
  return metric.values[0].value;
}

/** Samples the gauge every few milliseconds until stopped: the most it showed. */
function watchMost(): { stop(): Promise<number> } {
  let most = 0;
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(async () => void (most = Math.max(most, await held())));
  }, 5);
  return {
    async stop() {
      clearInterval(timer);
      await sampling;
      return most;
    },
  };
}

/** A client that asks for `path` (over HTTP, or a WebSocket upgrade) and never reads a byte. */
function hoard(path: string, upgrade = false): Socket {
  const socket = connect(server.port, '127.0.0.1');
  const head = upgrade
    ? 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'
    : '';
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n`);
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

interface Reader {
  readonly received: number[];
  errors: number;
  ended: boolean;
  readonly request: ClientRequest;
}

/** A client that reads an SSE stream as it comes, noting each item's number and each error event. */
function read(path: string): Reader {
  const reader = { received: [] as number[], errors: 0, ended: false } as Reader;
  let text = '';
  const request = get(`${server.url}${path}`, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      for (let at = text.indexOf('\n\n'); at >= 0; at = text.indexOf('\n\n')) {
        const frame = text.slice(0, at);
        text = text.slice(at + 2);
        if (frame.startsWith('data:{')) reader.received.push((JSON.parse(frame.slice(5)) as { i: number }).i);
        else if (frame.startsWith('event:error')) reader.errors++;
      }
    });
    res.on('close', () => (reader.ended = true));
    res.on('error', () => undefined);
  });
  request.on('error', () => undefined);
  return Object.assign(reader, { request });
}

/** Whether `received` is 0, 1, 2... with nothing missing or out of order. */
function inOrder(received: readonly number[]): boolean {
  return received.every((i, at) => i === at);
}

/** Closes `sockets` and waits until the application holds nothing any more. */
async function leave(sockets: Socket[], what: string): Promise<void> {
  for (const socket of sockets) socket.destroy();
  await until(async () => ((await held()) === 0 ? true : undefined), `${what}: the held bytes back to 0`, 10_000);
}

describe('framework.rest.stream.total-buffer-size over real sockets', () => {
  it('fail: clients that never read are cut once the total is held, a client that reads gets every event in order', async () => {
    const most = watchMost();
    const reader = read('/total/fail');
    await until(() => (reader.received.length > 0 ? true : undefined), 'the reader’s first event');
    const hoarders = Array.from({ length: HOARDERS }, () => hoard('/total/fail'));
    try {
      await until(() => (live.get('fail') === HOARDERS + 1 ? true : undefined), 'every hoarder’s stream open');
      // Every hoarder's source stops: its stream was cut; the reader's goes on.
      await until(() => (live.get('fail') === 1 ? true : undefined), 'every hoarder’s stream cut', 20_000);
      const seen = reader.received.length;
      await until(() => (reader.received.length > seen + 500 ? true : undefined), 'the reader going on after the cuts');
      expect(await most.stop()).toBeLessThanOrEqual(TOTAL + CHUNK);
      expect(reader.errors).toBe(0);
      expect(reader.ended).toBe(false);
      expect(inOrder(reader.received)).toBe(true);
    } finally {
      await most.stop();
      reader.request.destroy();
      await leave(hoarders, 'fail');
    }
    await until(() => (live.get('fail') === 0 ? true : undefined), 'every source unsubscribed');
  });

  it('drop-oldest: the hoarders’ streams drop items and go on within the total, the reader misses nothing', async () => {
    const most = watchMost();
    const reader = read('/total/drop');
    await until(() => (reader.received.length > 0 ? true : undefined), 'the reader’s first event');
    const hoarders = Array.from({ length: HOARDERS }, () => hoard('/total/drop'));
    try {
      await until(() => (live.get('drop') === HOARDERS + 1 ? true : undefined), 'every hoarder’s stream open');
      await until(async () => ((await held()) > TOTAL / 2 ? true : undefined), 'the hoarders holding half the total');
      const seen = reader.received.length;
      await until(() => (reader.received.length > seen + 1000 ? true : undefined), 'the reader going on');
      expect(await most.stop()).toBeLessThanOrEqual(TOTAL + CHUNK);
      // Dropping, no stream ended: every source still runs.
      expect(live.get('drop')).toBe(HOARDERS + 1);
      expect(inOrder(reader.received)).toBe(true);
    } finally {
      await most.stop();
      reader.request.destroy();
      await leave(hoarders, 'drop-oldest');
    }
    await until(() => (live.get('drop') === 0 ? true : undefined), 'every drop-oldest source unsubscribed');
  });

  it('a WebSocket whose peer never reads counts against the same total, and the reading socket gets every message', async () => {
    const most = watchMost();
    const socket: TestSocket = openSocket(`ws://127.0.0.1:${server.port}/total/ws`);
    await within(socket.opened, 'the reading socket open');
    const hoarders = Array.from({ length: HOARDERS }, () => hoard('/total/ws', true));
    try {
      await until(() => (live.get('ws') === HOARDERS + 1 ? true : undefined), 'every hoarding socket’s stream open');
      await until(() => (live.get('ws') === 1 ? true : undefined), 'every hoarding socket’s stream cut', 20_000);
      const seen = socket.received.length;
      await until(() => (socket.received.length > seen + 500 ? true : undefined), 'the reading socket going on');
      expect(await most.stop()).toBeLessThanOrEqual(TOTAL + CHUNK);
      expect(inOrder(socket.received.map((message) => (JSON.parse(message) as { i: number }).i))).toBe(true);
    } finally {
      await most.stop();
      socket.socket.terminate();
      await leave(hoarders, 'websocket');
    }
    await until(() => (live.get('ws') === 0 ? true : undefined), 'every socket’s source unsubscribed');
  });
});
