/**
 * The broadcast bench's baseline: what the broadcast server does, written by hand on `node:http` — `GET
 * /bench/events` holds an SSE response, `POST /bench/publish?rate=R&ms=D` publishes as the rxrest server does, and
 * each event is framed once (`id:<id>\ndata:<json>\n\n`, the frame rxrest writes) and written to every held
 * response in a loop, the frames of one tick together (one write per subscriber a tick). argv[2] is the backend:
 * `memory` writes after the tick that published; `redis-streams` (URL in argv[3]) `XADD`s each event and writes each
 * batch a blocking `XREAD` loop reads back, the entry id as the event id.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { READY_PREFIX } from '../bench-routes';
import { publishAtRate, type BenchEvent } from './publish-at-rate';
import { followParent } from './server-control';

const KEY = 'rxrest-loop:bench';
const streams = new Set<ServerResponse>();
let sequence = 0;

let pending = '';

function writeAll(frames: string): void {
  for (const response of streams) response.write(frames);
}

/** Frames published in one tick go out together: one write per subscriber, after the tick. */
function writeSoon(frame: string): void {
  if (pending === '')
    setImmediate(() => {
      const frames = pending;
      pending = '';
      writeAll(frames);
    });
  pending += frame;
}

/** Reads the stream from its end on, writing every batch of entries read to every subscriber. */
async function readForever(reader: Redis): Promise<never> {
  let last = '$';
  for (;;) {
    const reply = (await reader.call('XREAD', 'COUNT', 1000, 'BLOCK', 5000, 'STREAMS', KEY, last)) as
      [string, [string, string[]][]][] | null;
    const entries = reply?.[0]?.[1] ?? [];
    if (entries.length === 0) continue;
    writeAll(entries.map(([id, fields]) => `id:${id}\ndata:${fields[1]}\n\n`).join(''));
    last = entries.at(-1)![0];
  }
}

function publisher(
  backend: string,
  url: string | undefined,
): { publish: (event: BenchEvent) => void; close: () => void } {
  if (backend === 'memory')
    return {
      publish: (event) => writeSoon(`id:${Date.now()}-${sequence++}\ndata:${JSON.stringify(event)}\n\n`),
      close: () => undefined,
    };
  const commands = new Redis(url!, { protocol: 2 });
  const reader = new Redis(url!, { protocol: 2 });
  void readForever(reader).catch((error: unknown) => process.stderr.write(`XREAD loop failed: ${String(error)}\n`));
  return {
    publish: (event) =>
      void commands
        .xadd(KEY, 'MAXLEN', '~', 10_000, '*', 'd', JSON.stringify(event))
        .catch((error: unknown) => process.stderr.write(`XADD failed: ${String(error)}\n`)),
    close: () => {
      commands.disconnect();
      reader.disconnect();
    },
  };
}

const [backend = 'memory', url] = process.argv.slice(2);
const { publish, close } = publisher(backend, url);

const server = createServer((request, response) => {
  const { pathname, searchParams } = new URL(request.url ?? '/', 'http://x');
  if (pathname === '/bench/publish') {
    publishAtRate(Number(searchParams.get('rate')), Number(searchParams.get('ms')), publish);
    return void response.writeHead(202).end();
  }
  if (pathname === '/bench/subscribers') {
    response.writeHead(200, { 'content-type': 'application/json' });
    return void response.end(JSON.stringify({ subscribers: streams.size }));
  }
  if (pathname !== '/bench/events') return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.flushHeaders();
  streams.add(response);
  response.once('close', () => streams.delete(response));
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${READY_PREFIX}${(server.address() as AddressInfo).port}\n`);
  followParent(() => {
    close();
    server.close();
  });
});
