/**
 * WebSocket benchmark: rxrest's echo endpoint beside a bare `ws` server doing the same, each in a process of its
 * own, driven by `ws` clients in this process. Messages echoed per second over one socket (100,000 messages sent at
 * once) and over 1,000 sockets (100 each); the server's RSS per idle socket (1,000 open). Target: ≥ 0.8× bare `ws`.
 * Then what `framework.websocket.compression` costs: the server's RSS per socket once each of 1,000 sockets echoed
 * one 4 KB JSON message, with permessage-deflate off and on.
 */
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { rssBytes, startChildServer, type ChildServer } from './child-server';
import { median } from './report';

const SERVERS = ['ws', 'rxrest'] as const;
const ROUNDS = 3;
const ONE_SOCKET_MESSAGES = 100_000;
const SOCKETS = 1000;
const PER_SOCKET = 100;

const note = (line: string): void => void process.stdout.write(`${line}\n`);

function open(port: number, count: number, perMessageDeflate = false): Promise<WebSocket[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${port}/echo`, { perMessageDeflate });
          socket.once('open', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
}

/** Sends `each` messages on every socket at once; resolves with the messages echoed per second. */
function echo(sockets: readonly WebSocket[], each: number): Promise<number> {
  const total = sockets.length * each;
  let received = 0;
  const started = performance.now();
  return new Promise((resolve) => {
    for (const socket of sockets) {
      socket.removeAllListeners('message');
      socket.on('message', () => {
        if (++received === total) resolve(total / ((performance.now() - started) / 1000));
      });
    }
    for (const socket of sockets) for (let i = 0; i < each; i++) socket.send(`message ${i} of a socket`);
  });
}

async function closeAll(sockets: readonly WebSocket[]): Promise<void> {
  await Promise.all(
    sockets.map((socket) => new Promise<void>((resolve) => (socket.once('close', () => resolve()), socket.close()))),
  );
}

interface Figures {
  one: number[];
  many: number[];
  perSocket: number[];
}

async function measure(server: ChildServer, figures: Figures): Promise<void> {
  const [single] = await open(server.port, 1);
  await echo([single!], 1000);
  figures.one.push(await echo([single!], ONE_SOCKET_MESSAGES));
  await closeAll([single!]);
  const before = rssBytes(server.pid);
  const sockets = await open(server.port, SOCKETS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  figures.perSocket.push((rssBytes(server.pid) - before) / SOCKETS);
  figures.many.push(await echo(sockets, PER_SOCKET));
  await closeAll(sockets);
}

/** 4 KB of JSON, as chat or telemetry messages are: above ws's 1 KB threshold, so it is compressed both ways. */
const JSON_MESSAGE = JSON.stringify(Array.from({ length: 120 }, (_, id) => ({ id, kind: 'reading', ok: true }))).slice(
  0,
  4096,
);

/** The server's RSS per socket once each of `SOCKETS` sockets echoed one JSON message (deflate offered or not). */
async function rssPerUsedSocket(server: ChildServer, deflate: boolean): Promise<number> {
  const before = rssBytes(server.pid);
  const sockets = await open(server.port, SOCKETS, deflate);
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          socket.once('message', () => resolve());
          socket.send(JSON_MESSAGE);
        }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const perSocket = (rssBytes(server.pid) - before) / SOCKETS;
  await closeAll(sockets);
  return perSocket;
}

/** RSS per used socket, permessage-deflate off and on (medians of `ROUNDS` fresh servers each). */
async function runCompressionCost(): Promise<void> {
  const perSocket = { off: [] as number[], on: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['off', 'on'] as const) {
      const server = await startChildServer('websocket-server', [mode === 'on' ? 'rxrest-deflate' : 'rxrest'], '1');
      try {
        perSocket[mode].push(await rssPerUsedSocket(server, mode === 'on'));
      } finally {
        await server.stop();
      }
    }
  }
  const kb = (values: number[]) => (median(values) / 1024).toFixed(1);
  note('\nframework.websocket.compression: RSS per socket after one 4 KB JSON message each way (1,000 sockets)');
  note(`| off | ${kb(perSocket.off)} KB |`);
  note(`| on | ${kb(perSocket.on)} KB |`);
  note(`permessage-deflate costs ${((median(perSocket.on) - median(perSocket.off)) / 1024).toFixed(1)} KB per socket`);
}

export async function runWebSocketBench(): Promise<void> {
  note(
    '\nWebSockets: echo over 1 socket (100,000 messages at once) and over 1,000 sockets (100 each); RSS per idle socket',
  );
  const figures: Record<(typeof SERVERS)[number], Figures> = {
    ws: { one: [], many: [], perSocket: [] },
    rxrest: { one: [], many: [], perSocket: [] },
  };
  // Rounds alternate the servers, so that a noisy moment of the machine falls on both.
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of SERVERS) {
      const server = await startChildServer('websocket-server', [name], '1');
      try {
        await measure(server, figures[name]);
      } finally {
        await server.stop();
      }
    }
  }
  const row = (name: (typeof SERVERS)[number]) => {
    const { one, many, perSocket } = figures[name];
    return `| ${name} | ${Math.round(median(one)).toLocaleString('en')} | ${Math.round(median(many)).toLocaleString('en')} | ${(median(perSocket) / 1024).toFixed(1)} KB |`;
  };
  note('| server | msgs/s, 1 socket | msgs/s, 1,000 sockets | RSS per idle socket |');
  note('|---|---:|---:|---:|');
  for (const name of SERVERS) note(row(name));
  const ratio = (pick: (figures: Figures) => number[]) =>
    (median(pick(figures.rxrest)) / median(pick(figures.ws))).toFixed(2);
  note(`rxrest ÷ ws: ${ratio((f) => f.one)}× on 1 socket, ${ratio((f) => f.many)}× on 1,000 sockets (target ≥ 0.80)`);
  await runCompressionCost();
}
