/**
 * Broadcast benchmark: 1,000 SSE subscribers of one topic, events published inside the server at 100, 1,000 and
 * 10,000 a second for 5 s: the share of events delivered, the p99 time from publication to reception (the
 * clients parse every event in this process), and the server's RSS. Then the same across two instances
 * through a real redis-server: 500 subscribers on each, events published on the first.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rssBytes, startChildServer, type ChildServer } from './child-server';

const SUBSCRIBERS = 1000;
const RATES = [100, 1000, 10_000];
const PUBLISH_MS = 5000;
/** Latencies kept (every event's when there are fewer). */
const LATENCY_SAMPLES = 200_000;

const note = (line: string): void => void process.stdout.write(`${line}\n`);

interface Subscribers {
  readonly received: () => number;
  readonly latencies: () => Float64Array;
  reset(): void;
  close(): void;
}

/** `count` SSE clients of `/bench/events` on each of `ports`, counting events and sampling their latency. */
async function subscribe(ports: readonly number[], count: number): Promise<Subscribers> {
  const agent = new Agent({ keepAlive: false, maxSockets: count * ports.length });
  let received = 0;
  const latencies = new Float64Array(LATENCY_SAMPLES);
  let sampled = 0;
  const requests: ReturnType<typeof request>[] = [];
  await Promise.all(
    ports.flatMap((port) =>
      Array.from(
        { length: count },
        () =>
          new Promise<void>((resolve, reject) => {
            const req = request({ host: '127.0.0.1', port, path: '/bench/events', agent }, (res) => {
              let pending = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => {
                const lines = (pending + chunk).split('\n');
                pending = lines.pop()!;
                const now = performance.timeOrigin + performance.now();
                for (const line of lines) {
                  if (!line.startsWith('data:')) continue;
                  received++;
                  // Reservoir of the latest events' latencies: every one while there is room, then a ring.
                  const at = line.indexOf('"t":');
                  latencies[sampled++ % LATENCY_SAMPLES] = now - Number(line.slice(at + 4, line.indexOf('}', at)));
                }
              });
              res.on('error', () => undefined);
              resolve();
            });
            req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
            req.end();
            requests.push(req);
          }),
      ),
    ),
  );
  return {
    received: () => received,
    latencies: () => latencies.slice(0, Math.min(sampled, LATENCY_SAMPLES)),
    reset: () => {
      received = 0;
      sampled = 0;
    },
    close: () => {
      for (const req of requests) req.destroy();
      agent.destroy();
    },
  };
}

function p99(values: Float64Array): number {
  if (values.length === 0) return Number.NaN;
  const sorted = values.sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
}

async function waitForSubscribers(port: number, count: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { subscribers } = (await (await fetch(`http://127.0.0.1:${port}/bench/subscribers`)).json()) as { subscribers: number };
    if (subscribers >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`only some of the ${count} subscribers arrived on port ${port}`);
}

/** Publishes at each rate on `publisher` and reports what `subscribers` (on `servers`) received. */
async function measureRates(label: string, publisher: ChildServer, servers: readonly ChildServer[], subscribers: Subscribers, total: number): Promise<Record<string, number | string>[]> {
  const rows: Record<string, number | string>[] = [];
  for (const rate of RATES) {
    subscribers.reset();
    let peakRss = 0;
    const rss = setInterval(() => (peakRss = Math.max(peakRss, ...servers.map((server) => rssBytes(server.pid)))), 100);
    await fetch(`http://127.0.0.1:${publisher.port}/bench/publish?rate=${rate}&ms=${PUBLISH_MS}`, { method: 'POST' });
    const expected = (rate * PUBLISH_MS * total) / 1000;
    // Up to 5 s more for the last events to arrive.
    const deadline = Date.now() + PUBLISH_MS + 5000;
    while (subscribers.received() < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    clearInterval(rss);
    const delivered = subscribers.received() / expected;
    const latency = p99(subscribers.latencies());
    note(`  ${label.padEnd(26)} ${String(rate).padStart(6)} events/s × ${total} subscribers: ${(delivered * 100).toFixed(1)} % delivered, p99 ${latency.toFixed(1)} ms publish-to-receive, server RSS ${(peakRss / 1048576).toFixed(0)} MB`);
    rows.push({ backend: label, rate, subscribers: total, deliveredPercent: Math.round(delivered * 1000) / 10, p99Ms: Math.round(latency * 10) / 10, rssMB: Math.round(peakRss / 1048576) });
  }
  return rows;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A throwaway redis-server, or undefined (with a note) when the package is missing. */
async function startRedis(): Promise<{ url: string; stop: () => void } | undefined> {
  try {
    execFileSync('sh', ['-c', 'command -v redis-server'], { stdio: 'ignore' });
  } catch {
    note('  (redis-server missing: run .ci/install-tools for the Redis half)');
    return undefined;
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rxrest-bench-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Ready to accept') && resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs both halves and prints their lines; returns the rows. */
export async function runBroadcastBench(): Promise<Record<string, number | string>[]> {
  note(`Events published inside the server for ${PUBLISH_MS / 1000} s at each rate; ${SUBSCRIBERS} SSE clients in this process parse every event; p99 over the last ${LATENCY_SAMPLES.toLocaleString('en')} events`);
  const rows: Record<string, number | string>[] = [];
  const memory = await startChildServer('broadcast-server', ['memory']);
  try {
    const subscribers = await subscribe([memory.port], SUBSCRIBERS);
    await waitForSubscribers(memory.port, SUBSCRIBERS);
    rows.push(...(await measureRates('in memory, one instance', memory, [memory], subscribers, SUBSCRIBERS)));
    subscribers.close();
  } finally {
    await memory.stop();
  }
  const redis = await startRedis();
  if (!redis) return rows;
  const servers = await Promise.all([startChildServer('broadcast-server', ['redis', redis.url]), startChildServer('broadcast-server', ['redis', redis.url])]);
  try {
    const half = SUBSCRIBERS / 2;
    const subscribers = await subscribe(servers.map((server) => server.port), half);
    for (const server of servers) await waitForSubscribers(server.port, half);
    rows.push(...(await measureRates('Redis, two instances', servers[0]!, servers, subscribers, SUBSCRIBERS)));
    subscribers.close();
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    redis.stop();
  }
  return rows;
}

if (require.main === module) void runBroadcastBench();
