/**
 * Broadcast benchmark: 1,000 SSE subscribers of one topic, events published inside the server at 100, 1,000 and
 * 10,000 a second for 5 s: the share of events delivered, the p99 time from publication to reception (the
 * clients parse every event in this process), and the server's RSS. Then the same across two instances
 * through a real redis-server, on pub/sub and on Redis Streams: 500 subscribers on each, events published on the
 * first. Then resuming: 10,000 events stored, and one client, then 1,000 at once, resuming after the marker before
 * them (so each misses all 10,000); and the Redis memory the 10,000 events take. Then the highest rate each of rxrest
 * and a hand loop fully delivers (broadcast-ceiling.ts). First, what fan-out costs the server's CPU beside the same
 * loop, whatever the load (broadcast-cost.ts).
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { runBroadcastCeilings } from './broadcast-ceiling';
import { runBroadcastCost } from './broadcast-cost';
import {
  LATENCY_SAMPLES,
  measureRates,
  note,
  PUBLISH_MS,
  RATES,
  startRedis,
  subscribe,
  SUBSCRIBERS,
  waitForSubscribers,
} from './broadcast-harness';
import { startChildServer, type ChildServer } from './child-server';

/** Events stored before clients resume, and how many clients resume at once. */
const MISSED = 10_000;
const RESUMERS = 1000;
/** The rate at which the Redis backends are compared head to head, in interleaved rounds on fresh instances. */
const COMPARED_RATE = 1000;
const COMPARED_ROUNDS = 3;

/** Opens `/bench/history` after `marker` and resolves with the milliseconds until `MISSED` events came. */
function resumeOnce(port: number, marker: string, agent: Agent): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/bench/history', agent, headers: { 'last-event-id': marker } },
      (res) => {
        let events = 0;
        let pending = '';
        res.setEncoding('utf8');
        let head = '';
        res.on('data', (chunk: string) => {
          if (head.length < 300) head += chunk.slice(0, 300);
          const blocks = (pending + chunk).split('\n\n');
          pending = blocks.pop()!;
          events += blocks.length;
          if (events >= MISSED) {
            resolve(performance.now() - started);
            req.destroy();
          }
        });
        res.on('error', () => undefined);
        res.on('close', () =>
          reject(new Error(`a resuming client got ${events} events of ${MISSED} (status ${res.statusCode}): ${head}`)),
        );
      },
    );
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/** `MISSED` events stored on `servers[0]`; one client, then `RESUMERS` spread over `servers`, resume after the marker. */
async function measureResume(label: string, servers: readonly ChildServer[]): Promise<Record<string, number | string>> {
  const filled = await fetch(`http://127.0.0.1:${servers[0]!.port}/bench/fill?count=${MISSED}`, { method: 'POST' });
  // A failed fill would send every resumer from a marker that does not exist: say so instead of timing nothing.
  if (!filled.ok)
    throw new Error(`${label}: storing ${MISSED} events answered ${filled.status}: ${await filled.text()}`);
  const { marker } = (await filled.json()) as { marker: string };
  const agent = new Agent({ keepAlive: false, maxSockets: RESUMERS });
  const alone = await resumeOnce(servers.at(-1)!.port, marker, agent);
  const started = performance.now();
  const each = (
    await Promise.all(
      Array.from({ length: RESUMERS }, (_, n) => resumeOnce(servers[n % servers.length]!.port, marker, agent)),
    )
  ).sort((a, b) => a - b);
  const all = performance.now() - started;
  agent.destroy();
  const median = each[Math.floor(each.length / 2)]!;
  const worst = each[Math.min(each.length - 1, Math.floor(each.length * 0.99))]!;
  note(
    `  ${label.padEnd(26)} resume of ${MISSED.toLocaleString('en')} missed events: one client ${alone.toFixed(0)} ms; ${RESUMERS} at once ${(all / 1000).toFixed(1)} s in all (each: median ${median.toFixed(0)} ms, p99 ${worst.toFixed(0)} ms)`,
  );
  return {
    backend: label,
    resumeMissed: MISSED,
    resumeOneMs: Math.round(alone),
    resumers: RESUMERS,
    resumeAllMs: Math.round(all),
    resumeMedianMs: Math.round(median),
    resumeP99Ms: Math.round(worst),
  };
}

/** The bytes Redis holds for the `history` topic's stream (the marker and `MISSED` events), per 10,000 events. */
async function streamMemory(url: string): Promise<Record<string, number | string>> {
  const redis = new Redis(url, { protocol: 2 });
  try {
    const bytes = Number(await redis.call('MEMORY', 'USAGE', 'rxrest:stream:history', 'SAMPLES', '0'));
    const length = Number(await redis.call('XLEN', 'rxrest:stream:history'));
    const per10k = (bytes / length) * 10_000;
    note(
      `  Redis Streams memory: ${length.toLocaleString('en')} events of ~40 bytes of JSON take ${(bytes / 1048576).toFixed(2)} MB (${(per10k / 1048576).toFixed(2)} MB per 10,000 retained events)`,
    );
    return {
      backend: 'redis-streams',
      retainedEvents: length,
      redisBytes: bytes,
      redisMBPer10k: Math.round((per10k / 1048576) * 100) / 100,
    };
  } finally {
    redis.disconnect();
  }
}

/** Two fresh instances on `backend` sharing `redis`, given to `measure` and stopped after it. */
async function withTwoInstances<T>(
  backend: 'redis' | 'redis-streams',
  url: string,
  measure: (servers: readonly ChildServer[]) => Promise<T>,
): Promise<T> {
  const servers = await Promise.all([
    startChildServer('broadcast-server', [backend, url]),
    startChildServer('broadcast-server', [backend, url]),
  ]);
  try {
    return await measure(servers);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** The rates on two instances: half the subscribers on each, events published on the first. */
function measureTwoInstances(
  label: string,
  backend: 'redis' | 'redis-streams',
  url: string,
  rates = RATES,
): Promise<Record<string, number | string>[]> {
  return withTwoInstances(backend, url, async (servers) => {
    const half = SUBSCRIBERS / 2;
    const subscribers = await subscribe(
      servers.map((server) => server.port),
      half,
    );
    for (const server of servers) await waitForSubscribers(server.port, half);
    const rows = await measureRates(label, servers[0]!, servers, subscribers, SUBSCRIBERS, rates);
    subscribers.close();
    return rows;
  });
}

/** Pub/sub and Streams at `COMPARED_RATE`, alternately on fresh instances: the median p99 of each and their ratio. */
async function compareRedisBackends(url: string): Promise<Record<string, number | string>> {
  const p99s: Record<'redis' | 'redis-streams', number[]> = { redis: [], 'redis-streams': [] };
  for (let round = 1; round <= COMPARED_ROUNDS; round++) {
    for (const backend of ['redis', 'redis-streams'] as const) {
      const [row] = await measureTwoInstances(`${backend}, round ${round}`, backend, url, [COMPARED_RATE]);
      p99s[backend].push(Number(row!.p99Ms));
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const pubsub = median(p99s.redis);
  const streams = median(p99s['redis-streams']);
  note(
    `  ${COMPARED_RATE} events/s, median of ${COMPARED_ROUNDS} interleaved rounds: p99 pub/sub ${pubsub} ms, Streams ${streams} ms = ${(streams / pubsub).toFixed(2)}× pub/sub`,
  );
  return {
    compared: `${COMPARED_RATE} events/s`,
    pubsubP99Ms: pubsub,
    streamsP99Ms: streams,
    ratio: Math.round((streams / pubsub) * 100) / 100,
  };
}

/** Runs every half and prints their lines; returns the rows. */
export async function runBroadcastBench(): Promise<Record<string, number | string>[]> {
  note(
    `Events published inside the server for ${PUBLISH_MS / 1000} s at each rate; ${SUBSCRIBERS} SSE clients in this process parse every event; p99 over ${LATENCY_SAMPLES.toLocaleString('en')} latencies sampled evenly over each window (every one when fewer)`,
  );
  const rows: Record<string, number | string>[] = await runBroadcastCost();
  const memory = await startChildServer('broadcast-server', ['memory']);
  try {
    const subscribers = await subscribe([memory.port], SUBSCRIBERS);
    await waitForSubscribers(memory.port, SUBSCRIBERS);
    rows.push(...(await measureRates('in memory, one instance', memory, [memory], subscribers, SUBSCRIBERS)));
    subscribers.close();
  } finally {
    await memory.stop();
  }
  const fresh = await startChildServer('broadcast-server', ['memory']);
  try {
    rows.push(await measureResume('in memory, one instance', [fresh]));
  } finally {
    await fresh.stop();
  }
  const redis = await startRedis();
  if (!redis) return [...rows, ...(await runBroadcastCeilings(undefined))];
  try {
    rows.push(...(await measureTwoInstances('Redis pub/sub, 2 instances', 'redis', redis.url)));
    rows.push(...(await measureTwoInstances('Redis Streams, 2 instances', 'redis-streams', redis.url)));
    rows.push(await compareRedisBackends(redis.url));
    // On instances of their own: the 10,000 events/s step above leaves the ones it overloaded busy for a while.
    // A resume that lost events (Redis trims its streams approximately) is reported, and the ceilings still run.
    try {
      rows.push(
        await withTwoInstances('redis-streams', redis.url, (servers) =>
          measureResume('Redis Streams, 2 instances', servers),
        ),
      );
    } catch (error) {
      note(
        `  Redis Streams, 2 instances: resuming failed: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`,
      );
    }
    rows.push(await streamMemory(redis.url));
    rows.push(...(await runBroadcastCeilings(redis.url)));
  } finally {
    redis.stop();
  }
  return rows;
}

if (require.main === module) void runBroadcastBench();
