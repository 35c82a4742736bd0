/**
 * One client process of the capacity bench (forked by `capacity-fleet.ts`): holds idle SSE streams or WebSockets
 * to one server from one loopback source address, opening them on its parent's command, and says how many are
 * open, how many heard from the server lately (a keep-alive comment, a ping, an event) and how many got an event.
 * argv: kind (`sse` or `ws`), port, path, local address.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';

/** Connections being opened at once by one client: under the server's listen backlog (511) for all clients together. */
const IN_FLIGHT = 64;

export type ClientCommand =
  | { readonly type: 'open'; readonly count: number }
  | { readonly type: 'status'; readonly heardWithinMs: number }
  | { readonly type: 'events'; readonly timeoutMs: number };

export type ClientReply =
  | { readonly type: 'opened'; readonly open: number; readonly failed: number; readonly error?: string }
  | { readonly type: 'status'; readonly open: number; readonly heard: number; readonly events: number }
  | { readonly type: 'events'; readonly open: number; readonly events: number; readonly lastEventMs: number };

/** One connection as the client sees it. */
interface Held {
  open: boolean;
  heardAt: number;
  events: number;
}

const [kind = 'sse', port = '0', path = '/', localAddress = '127.0.0.1'] = process.argv.slice(2);
const held: Held[] = [];
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
let failed = 0;
let lastError: string | undefined;
/** When the latest event came (ms since the epoch) and what it carried: its publication time. */
let lastEventAt = 0;
let lastPublishedAt = 0;

function heardEvent(connection: Held, data: string): void {
  connection.events++;
  lastEventAt = performance.timeOrigin + performance.now();
  lastPublishedAt = (JSON.parse(data) as { t: number }).t;
}

function openStream(connection: Held, done: (error?: Error) => void): void {
  const req = request({ host: '127.0.0.1', port: Number(port), path, agent, localAddress }, (res) => {
    if (res.statusCode !== 200) return done(new Error(`status ${res.statusCode}`));
    connection.open = true;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      connection.heardAt = performance.now();
      const at = chunk.indexOf('data:');
      if (at >= 0) heardEvent(connection, chunk.slice(at + 5, chunk.indexOf('\n', at)));
    });
    res.on('close', () => (connection.open = false));
    res.on('error', () => undefined);
    done();
  });
  req.on('error', (error) => (connection.open ? (connection.open = false) : done(error)));
  req.end();
}

function openSocket(connection: Held, done: (error?: Error) => void): void {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, { localAddress, perMessageDeflate: false });
  socket.once('open', () => {
    connection.open = true;
    done();
  });
  socket.on('ping', () => (connection.heardAt = performance.now()));
  socket.on('message', (data: Buffer) => {
    connection.heardAt = performance.now();
    heardEvent(connection, data.toString());
  });
  socket.on('close', () => (connection.open = false));
  socket.on('error', (error) => (connection.open ? undefined : done(error)));
}

/** Opens `count` connections, `IN_FLIGHT` at a time; resolves once each is open or failed. */
function open(count: number): Promise<void> {
  let started = 0;
  let settled = 0;
  return new Promise((resolve) => {
    const next = (): void => {
      if (started === count) return void (settled === count && resolve());
      started++;
      const connection: Held = { open: false, heardAt: performance.now(), events: 0 };
      held.push(connection);
      let once = false;
      (kind === 'ws' ? openSocket : openStream)(connection, (error) => {
        if (once) return;
        once = true;
        settled++;
        if (error) {
          failed++;
          lastError = error.message;
        }
        next();
      });
    };
    if (count === 0) return resolve();
    for (let i = 0; i < Math.min(IN_FLIGHT, count); i++) next();
  });
}

const openCount = (): number => held.filter((connection) => connection.open).length;
const withEvents = (): number => held.filter((connection) => connection.open && connection.events > 0).length;

async function answer(command: ClientCommand): Promise<ClientReply> {
  if (command.type === 'open') {
    await open(command.count);
    return { type: 'opened', open: openCount(), failed, error: lastError };
  }
  if (command.type === 'status') {
    const since = performance.now() - command.heardWithinMs;
    const heard = held.filter((connection) => connection.open && connection.heardAt >= since).length;
    return { type: 'status', open: openCount(), heard, events: withEvents() };
  }
  const deadline = performance.now() + command.timeoutMs;
  while (withEvents() < openCount() && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return { type: 'events', open: openCount(), events: withEvents(), lastEventMs: lastEventAt - lastPublishedAt };
}

process.on('message', (command: ClientCommand) => void answer(command).then((reply) => process.send!(reply)));
// The parent going away ends this process, and with it every connection it held.
process.on('disconnect', () => process.exit(0));
