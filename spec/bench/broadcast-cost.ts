/**
 * What a broadcast costs the server's CPU, apart from the machine's load: an rxrest topic and a hand loop (each event
 * framed once, a tick's frames written to every response in one write) in this one process, each with its own
 * `SUBSCRIBERS` SSE responses read by a child process that only discards the bytes. Ticks of `EVENTS_PER_TICK` events
 * are published on each in turn, in alternating order for `ROUNDS` rounds, and the process's CPU time is divided by
 * ticks × subscribers. The ceilings (broadcast-ceiling.ts) move with the load of a shared machine; CPU time per
 * write hardly does, so this says whether rxrest's fan-out itself costs more than the loop's. With 20 subscribers
 * the same shows the work done per event (publishing, framing) rather than per socket.
 */
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { broadcast, GET, Path, Produces, RestApplication, resolveConfig, type Multi, type SseEvent } from '../../lib';
import { note } from './broadcast-harness';

const EVENTS_PER_TICK = 100;
const TICKS = 200;
const ROUNDS = 6;

/** The subscribers' endpoint: the topic of the application that serves the request. */
@Path('events')
class CostResource {
  @GET
  @Produces('text/event-stream')
  events(): Multi<SseEvent> {
    return broadcast('cost', { replay: 0 }).subscribe();
  }
}

/** The hand loop: frames of a tick joined, written once per response at the tick's end. */
function handLoop(): { publish: (event: object) => void; responses: Set<ServerResponse>; port: Promise<number> } {
  const responses = new Set<ServerResponse>();
  let pending = '';
  let sequence = 0;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.flushHeaders();
    responses.add(response);
    response.once('close', () => responses.delete(response));
  });
  const port = new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  server.unref();
  const publish = (event: object) => {
    if (pending === '')
      setImmediate(() => {
        const frames = pending;
        pending = '';
        for (const response of responses) response.write(frames);
      });
    pending += `id:${Date.now()}-${sequence++}\ndata:${JSON.stringify(event)}\n\n`;
  };
  return { publish, responses, port };
}

/** A child process holding `count` SSE requests to each of `ports`, discarding what they receive. */
function discardingClients(ports: readonly number[], count: number): { stop: () => void } {
  const script = `const net = require('node:net');
for (const port of ${JSON.stringify(ports)}) for (let i = 0; i < ${count}; i++) {
  const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /events HTTP/1.1\\r\\nHost: bench\\r\\n\\r\\n'));
  socket.resume();
  socket.on('error', () => undefined);
}
process.stdin.on('end', () => process.exit(0)).resume();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'ignore', 'inherit'] });
  return { stop: () => child.stdin.end() };
}

const afterTick = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** CPU µs per tick per subscriber of the loop and of rxrest, for `subscribers` of each. */
async function measure(subscribers: number): Promise<{ loop: number; rxrest: number }> {
  const overrides = { 'framework.rest.sse.keep-alive': '0', 'framework.http.limits.max-streams-per-client': '0' };
  const app = RestApplication.build({ classes: [CostResource], config: resolveConfig({ overrides }) });
  const topic = app.broadcast<{ n: number; t: number }>('cost', { replay: 0 });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  const loop = handLoop();
  const clients = discardingClients([server.port, await loop.port], subscribers);
  while (topic.subscribers < subscribers || loop.responses.size < subscribers)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const publishers = { loop: loop.publish, rxrest: (event: object) => void topic.publish(event as never) };
  const costs = { loop: [] as number[], rxrest: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['loop', 'rxrest'] as const) : (['rxrest', 'loop'] as const);
    for (const name of order) {
      await afterTick();
      const start = process.cpuUsage();
      for (let tick = 0; tick < TICKS; tick++) {
        for (let n = 0; n < EVENTS_PER_TICK; n++) publishers[name]({ n, t: 1_764_000_000_000.123 + n });
        await afterTick();
      }
      const used = process.cpuUsage(start);
      costs[name].push((used.user + used.system) / (TICKS * subscribers));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  clients.stop();
  for (const response of loop.responses) response.destroy();
  await server.close();
  return { loop: median(costs.loop), rxrest: median(costs.rxrest) };
}

/** The CPU cost of fan-out at 1,000 and at 20 subscribers, rxrest beside the loop. */
export async function runBroadcastCost(): Promise<Record<string, number | string>[]> {
  note(
    `\nServer CPU per tick per subscriber (${EVENTS_PER_TICK} events a tick, ${TICKS} ticks, median of ${ROUNDS} alternating rounds, one process; load ${loadavg()[0]!.toFixed(1)}):`,
  );
  const rows: Record<string, number | string>[] = [];
  for (const subscribers of [1000, 20]) {
    const { loop, rxrest } = await measure(subscribers);
    note(
      `  ${String(subscribers).padStart(4)} subscribers: hand loop ${loop.toFixed(2)} µs, rxrest ${rxrest.toFixed(2)} µs = ${(rxrest / loop).toFixed(2)}× the loop`,
    );
    rows.push({ costSubscribers: subscribers, loopMicros: loop, rxrestMicros: rxrest, ratio: rxrest / loop });
  }
  return rows;
}
