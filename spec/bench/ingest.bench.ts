/**
 * Ingest benchmark: a 1,000,000-line NDJSON upload into a no-op handler (a `Multi` body parameter counted with
 * RxJS), against a hand-written node:http server that splits lines and parses each, in alternating rounds of
 * the same run; items/s from the first byte sent to the answer.
 */
import { request } from 'node:http';
import { rssBytes, startChildServer } from './child-server';

const LINES = 1_000_000;
const ROUNDS = 5;

/** The body, built once: 1,000 lines per chunk. */
function chunks(): Buffer[] {
  const all: Buffer[] = [];
  for (let n = 0; n < LINES; n += 1000) {
    let text = '';
    for (let i = n; i < n + 1000; i++) text += `{"id":${i},"name":"item ${i}","ok":true}\n`;
    all.push(Buffer.from(text));
  }
  return all;
}

function upload(port: number, body: readonly Buffer[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/bench/ingest',
        method: 'POST',
        headers: { 'Content-Type': 'application/x-ndjson' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const { count } = JSON.parse(text) as { count: number };
          if (count !== LINES) return reject(new Error(`counted ${count} of ${LINES}: ${text}`));
          resolve(LINES / seconds);
        });
      },
    );
    req.on('error', reject);
    let at = 0;
    const write = () => {
      while (at < body.length) if (!req.write(body[at++]!)) return void req.once('drain', write);
      req.end();
    };
    write();
  });
}

const GIGABYTE = 1024 * 1024 * 1024;
const SLOW_RATE = 10 * 1024 * 1024;

/** 1 GB of 1 KB lines through a handler taking 10 MB/s (about 100 s): the server's RSS growth, sampled from /proc. */
async function slowHandlerMemory(port: number, pid: number): Promise<{ seconds: number; growthMB: number }> {
  const line = `{"pad":"${'x'.repeat(1024 - 11)}"}\n`;
  const block = Buffer.from(line.repeat(64));
  const baseline = rssBytes(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 100);
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/bench/slow?rate=${SLOW_RATE}`,
        method: 'POST',
        headers: { 'Content-Type': 'application/x-ndjson', 'Content-Length': GIGABYTE },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          (JSON.parse(text) as { count: number }).count === GIGABYTE / 1024
            ? resolve()
            : reject(new Error(`slow ingest answered ${text}`)),
        );
      },
    );
    req.on('error', reject);
    let sent = 0;
    const write = () => {
      while (sent < GIGABYTE / block.length) {
        sent++;
        if (!req.write(block)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
  clearInterval(sampler);
  return { seconds: (Date.now() - started) / 1000, growthMB: (peak - baseline) / 1048576 };
}

/** Runs the benchmark and prints its line; returns the row (best items/s of the rounds, and the ratio). */
export async function runIngestBench(): Promise<Record<string, number>[]> {
  const body = chunks();
  const [rxrest, node] = await Promise.all([
    startChildServer('ingest-server', ['rxrest']),
    startChildServer('ingest-server', ['node']),
  ]);
  try {
    const rates = { rxrest: [] as number[], node: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of round % 2 ? (['node', 'rxrest'] as const) : (['rxrest', 'node'] as const))
        rates[name].push(await upload((name === 'rxrest' ? rxrest : node).port, body));
    }
    const best = { rxrest: Math.max(...rates.rxrest), node: Math.max(...rates.node) };
    const ratio = best.rxrest / best.node;
    process.stdout.write(
      `${LINES.toLocaleString('en')}-line NDJSON upload (${(body.reduce((sum, chunk) => sum + chunk.length, 0) / 1048576).toFixed(0)} MB), best of ${ROUNDS} alternating rounds: ` +
        `rxrest Multi body ${Math.round(best.rxrest).toLocaleString('en')} items/s, node:http + line splitter ${Math.round(best.node).toLocaleString('en')} items/s: ${ratio.toFixed(2)}× (target ≥ 0.8×)\n`,
    );
    const memory = await slowHandlerMemory(rxrest.port, rxrest.pid);
    process.stdout.write(
      `1 GB of NDJSON through a handler taking 10 MB/s: ${memory.seconds.toFixed(0)} s, server RSS growth ${memory.growthMB.toFixed(1)} MB (target < 30 MB)\n`,
    );
    return [
      {
        rxrestItemsPerSecond: Math.round(best.rxrest),
        nodeItemsPerSecond: Math.round(best.node),
        ratio: Math.round(ratio * 100) / 100,
        slowSeconds: Math.round(memory.seconds),
        rssGrowthMB: Math.round(memory.growthMB * 10) / 10,
      },
    ];
  } finally {
    await Promise.all([rxrest.stop(), node.stop()]);
  }
}

if (require.main === module) void runIngestBench();
