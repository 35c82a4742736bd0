/**
 * Capacity benchmark: N idle SSE streams (keep-alive comments on), then N idle WebSockets (pings on), held by one
 * server process, rxrest beside hand-written baselines (a raw `node:http` server holding SSE responses, a bare `ws`
 * server; servers/capacity-baseline.ts), for N = 10,000 and the largest N the open-file limit allows. For each:
 * memory per connection (memory-slope.ts), the time to open them all, the heartbeats' CPU, the RAM a million would
 * need, and whether every connection is still alive and gets one broadcast event at the end.
 */
import { availableParallelism, loadavg } from 'node:os';
import { startChildServer, type ChildServer } from './child-server';
import { benchTransports, startFleet, type Transport } from './capacity-fleet';
import { openFileLimit, openFiles, openMeasured, type Opened } from './capacity-measure';
import { formatCapacityTable, type CapacityResult, type ServerKind } from './capacity-report';
import { MEASURED_NODE_FLAGS, secondHalfSlope } from './memory-slope';
import { clockTicksPerSecond, cpuPinning, cpuTicks } from './server-process';

/** Keep-alive comments and pings this often on every server: short enough that a run sees several, long enough that
 * a client busy opening its share still answers a ping before the next (at 2 s, 2,000 of 10,000 were cut). */
export const HEARTBEAT_MS = 4000;
const STEPS = 10;
/** Heartbeat rounds over which the idle CPU is read. */
const CPU_ROUNDS = 3;
const CLIENTS = 4;
/** Files kept free below the limit: the publishing request's connection, and a few to spare. */
const SPARE_FILES = 10;
const SCRIPTS: Record<ServerKind, string> = { baseline: 'capacity-baseline', rxrest: 'capacity-server' };

const note = (line: string): void => void process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function start(kind: ServerKind): Promise<ChildServer> {
  return startChildServer(SCRIPTS[kind], [String(HEARTBEAT_MS)], cpuPinning()?.server, MEASURED_NODE_FLAGS);
}

/** The largest N: the servers' open-file limit less what the hungrier of them has open at rest and a few spare. */
async function largestN(): Promise<{ n: number; text: string }> {
  const atRest: number[] = [];
  let limit = { soft: Infinity, hard: Infinity };
  for (const kind of ['baseline', 'rxrest'] as const) {
    const server = await start(kind);
    limit = openFileLimit(server.pid);
    atRest.push(openFiles(server.pid));
    await server.stop();
  }
  const inUse = Math.max(...atRest);
  const n = Math.floor((limit.soft - inUse - SPARE_FILES) / 10) * 10;
  const text = `open-file limit of a server process ${limit.soft.toLocaleString('en')} (soft; hard ${limit.hard.toLocaleString('en')}), ${inUse} open at rest, ${SPARE_FILES} kept spare`;
  return { n, text };
}

/** The server's CPU over `CPU_ROUNDS` heartbeat rounds, in ms per round per 10,000 connections. */
async function heartbeatCpu(server: ChildServer, connections: number): Promise<number> {
  const before = cpuTicks(server.pid);
  await sleep(CPU_ROUNDS * HEARTBEAT_MS);
  const ms = ((cpuTicks(server.pid) - before) / clockTicksPerSecond()) * 1000;
  return (ms / CPU_ROUNDS) * (10_000 / connections);
}

/** Publishes one event and waits for every client to have it. */
async function broadcastOnce(server: ChildServer, fleet: ReturnType<typeof startFleet>) {
  const response = await fetch(`http://127.0.0.1:${server.port}/capacity/publish`, { method: 'POST' });
  if (response.status !== 202) throw new Error(`publishing answered ${response.status}`);
  return fleet.events(30_000);
}

async function measure(kind: ServerKind, transport: Transport, n: number): Promise<CapacityResult> {
  const server = await start(kind);
  const fleet = startFleet(transport, server.port, `/capacity/${transport}`, CLIENTS);
  try {
    const opened: Opened = await openMeasured(server, fleet, n, STEPS, HEARTBEAT_MS + 100);
    const cpuMsPerRound = await heartbeatCpu(server, opened.open);
    const status = await fleet.status(HEARTBEAT_MS * 2.5);
    const got = await broadcastOnce(server, fleet);
    return {
      kind,
      transport,
      n,
      opened,
      rss: secondHalfSlope(opened.readings, (memory) => memory.rss),
      heap: secondHalfSlope(opened.readings, (memory) => memory.heapUsed),
      cpuMsPerRound,
      alive: status.heard,
      events: got.events,
      eventMs: got.lastEventMs,
    };
  } finally {
    await fleet.close();
    await server.stop();
  }
}

export async function runCapacityBench(): Promise<void> {
  const { n: largest, text } = await largestN();
  note(
    `Idle connections held by one server process; ${text}: N = 10,000 and ${largest.toLocaleString('en')}. ` +
      `Clients in ${CLIENTS} processes, from 127.0.0.2-127.0.0.${CLIENTS + 1}. Heartbeats every ${HEARTBEAT_MS / 1000} s on every server ` +
      `(SSE keep-alive comments, WebSocket pings). Memory: servers run with ${MEASURED_NODE_FLAGS.join(' ')}; N opened in ${STEPS} equal steps, ` +
      `each read ${HEARTBEAT_MS + 100} ms after it opened (every connection has had a heartbeat) after two full GCs; per connection = ` +
      `least-squares slope of RSS over the readings from N/2 to N (± its standard error). Heartbeat CPU: the server's utime+stime ` +
      `over ${CPU_ROUNDS} rounds.`,
  );
  for (const transport of benchTransports()) {
    for (const n of [10_000, largest]) {
      const results: CapacityResult[] = [];
      for (const kind of ['baseline', 'rxrest'] as const) results.push(await measure(kind, transport, n));
      note(formatCapacityTable(results, HEARTBEAT_MS));
      note(`(load average over the last 5 minutes: ${loadavg()[1]!.toFixed(1)} on ${availableParallelism()} CPUs)`);
    }
  }
}
