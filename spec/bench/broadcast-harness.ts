/**
 * The broadcast benches' harness: SSE subscribers in this process that parse every event and sample its latency,
 * events published inside the server at a rate, and a throwaway redis-server.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rssBytes, type ChildServer } from './child-server';

export const SUBSCRIBERS = 1000;
export const RATES = [100, 1000, 10_000];
export const PUBLISH_MS = 5000;
/** Latencies kept: every event's when there are fewer, else evenly spread over the window. */
export const LATENCY_SAMPLES = 200_000;

export const note = (line: string): void => void process.stdout.write(`${line}\n`);
export interface Subscribers {
  readonly received: () => number;
  readonly latencies: () => Float64Array;
  /** Counts from zero again, for a window of about `expected` events (its latencies sampled evenly). */
  reset(expected?: number): void;
  close(): void;
}

/** `count` SSE clients of `/bench/events` on each of `ports`, counting events and sampling their latency. */
export async function subscribe(ports: readonly number[], count: number): Promise<Subscribers> {
  const agent = new Agent({ keepAlive: false, maxSockets: count * ports.length });
  let received = 0;
  const latencies = new Float64Array(LATENCY_SAMPLES);
  let sampled = 0;
  let stride = 1;
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
                  if (received++ % stride !== 0 || sampled === LATENCY_SAMPLES) continue;
                  const at = line.indexOf('"t":');
                  latencies[sampled++] = now - Number(line.slice(at + 4, line.indexOf('}', at)));
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
    latencies: () => latencies.slice(0, sampled),
    reset: (expected = 0) => {
      stride = Math.max(1, Math.ceil(expected / LATENCY_SAMPLES));
      received = 0;
      sampled = 0;
    },
    close: () => {
      for (const req of requests) req.destroy();
      agent.destroy();
    },
  };
}

export function p99(values: Float64Array): number {
  if (values.length === 0) return Number.NaN;
  const sorted = values.sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
}

export async function waitForSubscribers(port: number, count: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { subscribers } = (await (await fetch(`http://127.0.0.1:${port}/bench/subscribers`)).json()) as {
      subscribers: number;
    };
    if (subscribers >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`only some of the ${count} subscribers arrived on port ${port}`);
}

/**
 * Publishes at each rate on `publisher` for `windowMs` and reports what `subscribers` (on `servers`) received by
 * as long again after it.
 */
export async function measureRates(
  label: string,
  publisher: ChildServer,
  servers: readonly ChildServer[],
  subscribers: Subscribers,
  total: number,
  rates = RATES,
  windowMs = PUBLISH_MS,
): Promise<Record<string, number | string>[]> {
  const rows: Record<string, number | string>[] = [];
  for (const rate of rates) {
    const expected = (rate * windowMs * total) / 1000;
    subscribers.reset(expected);
    let peakRss = 0;
    const rss = setInterval(() => (peakRss = Math.max(peakRss, ...servers.map((server) => rssBytes(server.pid)))), 100);
    await fetch(`http://127.0.0.1:${publisher.port}/bench/publish?rate=${rate}&ms=${windowMs}`, { method: 'POST' });
    const deadline = Date.now() + 2 * windowMs;
    while (subscribers.received() < expected && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    clearInterval(rss);
    const delivered = subscribers.received() / expected;
    const latency = p99(subscribers.latencies());
    note(
      `  ${label.padEnd(26)} ${String(rate).padStart(6)} events/s × ${total} subscribers: ${(delivered * 100).toFixed(1)} % delivered, p99 ${latency.toFixed(1)} ms publish-to-receive, server RSS ${(peakRss / 1048576).toFixed(0)} MB`,
    );
    rows.push({
      backend: label,
      rate,
      subscribers: total,
      deliveredPercent: Math.round(delivered * 1000) / 10,
      p99Ms: Math.round(latency * 10) / 10,
      rssMB: Math.round(peakRss / 1048576),
    });
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
export async function startRedis(): Promise<{ url: string; stop: () => void } | undefined> {
  try {
    execFileSync('sh', ['-c', 'command -v redis-server'], { stdio: 'ignore' });
  } catch {
    note('  (redis-server missing: run .ci/install-tools for the Redis half)');
    return undefined;
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rxrest-bench-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Ready to accept') && resolve()),
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
