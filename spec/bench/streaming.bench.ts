/** Streaming benchmark: SSE and NDJSON items/s of rxrest vs raw node:http vs Hono's streamSSE/stream; RSS of 1,000,000 items; slow clients. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { stream, streamSSE } from 'hono/streaming';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GET, Path, Produces, QueryParam, RestApplication, resolveConfig } from '../../lib';
import { runSlowClientBench } from './slow-client';

const ITEMS = 100_000;
const BIG = 1_000_000;

async function* numbers(count: number): AsyncGenerator<{ i: number }> {
  for (let i = 0; i < count; i++) yield { i };
}

@Path('bench')
class StreamBenchResource {
  @GET @Path('sse') @Produces('text/event-stream')
  sse(@QueryParam('n') n: number): AsyncGenerator<{ i: number }> {
    return numbers(n);
  }

  @GET @Path('ndjson') @Produces('application/x-ndjson')
  ndjson(@QueryParam('n') n: number): AsyncGenerator<{ i: number }> {
    return numbers(n);
  }
}

function rawServer(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const n = Number(url.searchParams.get('n'));
    const sse = url.pathname.endsWith('sse');
    res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/x-ndjson' });
    let i = 0;
    const pump = () => {
      while (i < n) {
        const frame = sse ? `data:${JSON.stringify({ i })}\n\n` : `${JSON.stringify({ i })}\n`;
        i++;
        if (!res.write(frame)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
}

function honoApp(): Hono {
  const app = new Hono();
  app.get('/bench/sse', (c) => {
    const n = Number(c.req.query('n'));
    return streamSSE(c, async (s) => {
      for (let i = 0; i < n; i++) await s.writeSSE({ data: JSON.stringify({ i }) });
    });
  });
  app.get('/bench/ndjson', (c) => {
    const n = Number(c.req.query('n'));
    c.header('content-type', 'application/x-ndjson');
    return stream(c, async (s) => {
      for (let i = 0; i < n; i++) await s.write(`${JSON.stringify({ i })}\n`);
    });
  });
  return app;
}

function drainRequest(port: number, path: string): Promise<{ ms: number; bytes: number }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, bytes }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

function listening(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function best(port: number, path: string, rounds = 3): Promise<number> {
  let fastest = Infinity;
  for (let round = 0; round < rounds; round++) fastest = Math.min(fastest, (await drainRequest(port, path)).ms);
  return fastest;
}

/** Runs the streaming benchmark and prints its table; returns the rows. */
export async function runStreamingBench(): Promise<Record<string, number | string | boolean>[]> {
  const raw = rawServer();
  const rawPort = await listening(raw);
  const hono = serve({ fetch: honoApp().fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => hono.once('listening', resolve));
  const honoPort = (hono.address() as AddressInfo).port;
  const app = RestApplication.build({ classes: [StreamBenchResource], config: resolveConfig({ overrides: { 'framework.rest.sse.keep-alive': '0' } }) });
  const rx = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  const rows: Record<string, number>[] = [];
  for (const kind of ['sse', 'ndjson']) {
    const path = `/bench/${kind}?n=${ITEMS}`;
    const rawMs = await best(rawPort, path);
    const honoMs = await best(honoPort, path);
    const rxMs = await best(rx.port, path);
    const row = { rawItemsPerSec: Math.round(ITEMS / (rawMs / 1000)), honoItemsPerSec: Math.round(ITEMS / (honoMs / 1000)), rxrestItemsPerSec: Math.round(ITEMS / (rxMs / 1000)) };
    rows.push(row);
    process.stdout.write(`${kind.padEnd(7)} raw ${row.rawItemsPerSec}/s  hono ${row.honoItemsPerSec}/s (${(rawMs / honoMs).toFixed(2)}x raw)  rxrest ${row.rxrestItemsPerSec}/s (${(rawMs / rxMs).toFixed(2)}x raw)\n`);
  }
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const big = await drainRequest(rx.port, `/bench/ndjson?n=${BIG}`);
  clearInterval(sampler);
  const growthMb = (peak - before) / 1048576;
  rows.push({ items: BIG, ms: Math.round(big.ms), rssGrowthMb: Math.round(growthMb * 10) / 10 });
  process.stdout.write(`1,000,000 NDJSON items in ${Math.round(big.ms)} ms, ${big.bytes} bytes; RSS growth ${growthMb.toFixed(1)} MB (server and client in one process)\n`);
  await rx.close();
  await new Promise((resolve) => raw.close(resolve));
  await new Promise((resolve) => hono.close(resolve));
  // The server runs in a child process there, so its RSS is measured alone.
  return [...rows, ...(await runSlowClientBench()).map((row) => ({ ...row }))];
}

if (require.main === module) void runStreamingBench();
