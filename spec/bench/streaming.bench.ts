/**
 * Streaming benchmark: SSE and NDJSON items/s of rxrest (a synchronous Observable and an async generator)
 * against a raw node:http server writing the same frames and bare Hono's streamSSE/stream, each server in
 * a child process of its own, read by this process; the servers' RSS growth while 1,000,000 items stream;
 * then paused clients on an endless fast Observable.
 */
import { get } from 'node:http';
import { rssBytes, startChildServer, type ChildServer } from './child-server';
import { cpuPinning } from './server-process';
import { runSlowClientBench } from './slow-client';

const SIZES = [100_000, 1_000_000] as const;
const FRAMINGS = ['sse', 'ndjson'] as const;
const SOURCES = ['range', 'async'] as const;
const ROUNDS = 3;
const MB = 1048576;

interface Drained {
  readonly ms: number;
  readonly bytes: number;
  /** Largest growth of the server's RSS over its value before the request. */
  readonly rssGrowth: number;
}

/** Reads a whole response as fast as possible, sampling the server's RSS every 10 ms meanwhile. */
function drain(server: ChildServer, path: string): Promise<Drained> {
  const before = rssBytes(server.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid))), 10);
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: server.port, path, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => {
        clearInterval(sampler);
        peak = Math.max(peak, rssBytes(server.pid));
        resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, bytes, rssGrowth: peak - before });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The fastest of `rounds` runs (and the largest RSS growth among them). */
async function best(server: ChildServer, path: string, rounds: number): Promise<Drained> {
  let fastest: Drained | undefined;
  let growth = 0;
  for (let round = 0; round < rounds; round++) {
    const run = await drain(server, path);
    growth = Math.max(growth, run.rssGrowth);
    if (!fastest || run.ms < fastest.ms) fastest = run;
  }
  return { ...fastest!, rssGrowth: growth };
}

const perSecond = (n: number, run: Drained) => Math.round(n / (run.ms / 1000));
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

/** Runs the streaming benchmark and prints its table; returns the rows. */
export async function runStreamingBench(): Promise<Record<string, number | string | boolean>[]> {
  const pinning = cpuPinning();
  const start = (kind: string) => startChildServer('stream-server', [kind], pinning?.server);
  const servers = { node: await start('node'), hono: await start('hono'), rxrest: await start('rxrest') };
  const rows: Record<string, number | string>[] = [];
  process.stdout.write(
    `Each server alone in a child process${pinning ? ` on CPU ${pinning.server}` : ''}; items/s are the best of ${ROUNDS} runs (1 for 1,000,000 items); RSS growth is the server's, from /proc\n`,
  );
  try {
    for (const n of SIZES) {
      const rounds = n >= 1_000_000 ? 1 : ROUNDS;
      for (const framing of FRAMINGS) {
        const path = `/bench/${framing}?n=${n}`;
        const raw = await best(servers.node, path, rounds);
        const hono = await best(servers.hono, path, rounds);
        for (const source of SOURCES) {
          const rx = await best(servers.rxrest, `${path}&source=${source}`, rounds);
          const row = {
            items: n,
            framing,
            source: source === 'range' ? 'multi(range)' : 'async generator',
            rawPerSec: perSecond(n, raw),
            honoPerSec: perSecond(n, hono),
            rxrestPerSec: perSecond(n, rx),
            rxrestVsRaw: Math.round((raw.ms / rx.ms) * 100) / 100,
            honoVsRaw: Math.round((raw.ms / hono.ms) * 100) / 100,
            framedMb: mb(rx.bytes),
            rxrestRssGrowthMb: mb(rx.rssGrowth),
          };
          rows.push(row);
          process.stdout.write(
            `${String(n).padStart(9)} ${framing.padEnd(6)} ${row.source.padEnd(15)} raw ${row.rawPerSec}/s  hono ${row.honoPerSec}/s (${row.honoVsRaw}x)  ` +
              `rxrest ${row.rxrestPerSec}/s (${row.rxrestVsRaw}x raw); framed ${row.framedMb} MB, rxrest RSS +${row.rxrestRssGrowthMb} MB\n`,
          );
        }
      }
    }
    // A JSON array of 100,000 small objects from a synchronous Observable, against JSON.stringify of the array and one write.
    const path = `/bench/json?n=${SIZES[0]}`;
    const raw = await best(servers.node, path, ROUNDS);
    const rx = await best(servers.rxrest, `${path}&source=range`, ROUNDS);
    const ratio = Math.round((raw.ms / rx.ms) * 100) / 100;
    rows.push({
      items: SIZES[0],
      framing: 'json array',
      source: 'multi(range)',
      rawPerSec: perSecond(SIZES[0], raw),
      rxrestPerSec: perSecond(SIZES[0], rx),
      rxrestVsRaw: ratio,
    });
    process.stdout.write(
      `${String(SIZES[0]).padStart(9)} JSON array: JSON.stringify + one write ${raw.ms.toFixed(1)} ms, rxrest multi(range) ${rx.ms.toFixed(1)} ms (${ratio}x)\n`,
    );
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  return [...rows, ...(await runSlowClientBench()).map((row) => ({ ...row }))];
}

if (require.main === module) void runStreamingBench();
