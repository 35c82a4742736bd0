/**
 * Runtimes benchmark: on Node (through `@hono/node-server`), Bun, Deno and workerd (through Miniflare), rxrest against
 * bare Hono on the same runtime in the same run — a JSON GET under wrk, and 100,000 SSE items read by one client —
 * the stream against a hand-written `ReadableStream` loop on that runtime, and the GET against Hono doing by hand
 * the work rxrest's answer does besides (`servers/runtime-bench-app.ts`).
 */
import { rm } from 'node:fs/promises';
import { get } from 'node:http';
import { BENCH_ROUTES } from './bench-routes';
import { findLoadGenerator, type LoadGenerator, type LoadOptions } from './load';
import { median } from './report';
import { bundleBenchApps, RUNTIMES, startRuntimeServer, type RuntimeServer } from './runtime-servers';
import { cpuPinning } from './server-process';

const ITEMS = 100_000;
const STREAM_ROUNDS = 7;
/** The target: rxrest's requests/s at least 0.9 of bare Hono's on each runtime. */
const TARGET = 0.9;
const JSON_ROUTE = BENCH_ROUTES.find((route) => route.name.startsWith('GET /users'))!;

export interface RuntimesOptions extends LoadOptions {
  readonly rounds: number;
  readonly warmupSeconds: number;
}

export interface RuntimeRow {
  runtime: string;
  rxrestRps: number;
  honoRps: number;
  /** Median of the per-round ratios rxrest ÷ Hono (requests/s), with the lowest and highest. */
  getRatio: number;
  getLow: number;
  getHigh: number;
  /** The same, against Hono reading `Accept` and sending `nosniff` as rxrest must (`hono-same-work`). */
  sameWorkRps: number;
  sameWorkRatio: number;
  sameWorkLow: number;
  sameWorkHigh: number;
  rxrestItemsPerSec: number;
  honoItemsPerSec: number;
  loopItemsPerSec: number;
  sseVsHono: number;
  sseVsLoop: number;
}

/** Reads a whole answer as fast as it comes; the time and, when `keep`, the body. */
function drain(port: number, path: string, keep: boolean): Promise<{ ms: number; body: string }> {
  const start = process.hrtime.bigint();
  return new Promise((done, fail) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (chunk: Buffer) => void (keep && parts.push(chunk)));
      response.on('end', () =>
        done({ ms: Number(process.hrtime.bigint() - start) / 1e6, body: Buffer.concat(parts).toString() }),
      );
      response.on('error', fail);
    }).on('error', fail);
  });
}

/** The items of an SSE body (`data:` lines, whatever space follows the colon). */
const itemsIn = (body: string): number => body.match(/^data:/gm)?.length ?? 0;

/** One answer from each server before any load: a benchmark of wrong answers measures nothing. */
async function check(servers: readonly RuntimeServer[], note: (line: string) => void): Promise<void> {
  for (const server of servers) {
    const paths =
      server.kind === 'hono-same-work'
        ? []
        : [`/bench/sse?n=${ITEMS}`, ...(server.kind === 'hono' ? [`/bench/loop?n=${ITEMS}`] : [])];
    const json = await fetch(`http://127.0.0.1:${server.port}${JSON_ROUTE.path}`).then((r) => r.text());
    if (json !== JSON_ROUTE.expected) note(`  WARNING ${server.runtime} ${server.kind}: GET answered ${json}`);
    if (server.kind !== 'hono') {
      const refused = await fetch(`http://127.0.0.1:${server.port}${JSON_ROUTE.path}`, {
        headers: { accept: 'text/html' },
      });
      await refused.arrayBuffer();
      if (refused.status !== 406)
        note(`  WARNING ${server.runtime} ${server.kind}: Accept: text/html got ${refused.status}`);
    }
    for (const path of paths) {
      const items = itemsIn((await drain(server.port, path, true)).body);
      if (items !== ITEMS) note(`  WARNING ${server.runtime} ${server.kind} ${path}: ${items} items`);
    }
  }
}

/**
 * `rounds` rounds of rxrest and Hono under load at the same time, both on the servers' CPU (one wrk each): the
 * scheduler shares the CPU out, so their requests/s stand in the inverse ratio of their costs per request, and
 * whatever slows the machine (other processes on these shared cores) slows both within the same seconds.
 */
async function measureGet(load: LoadGenerator, rx: RuntimeServer, hono: RuntimeServer, options: RuntimesOptions) {
  const rxRates: number[] = [];
  const honoRates: number[] = [];
  const ratios: number[] = [];
  const both = (seconds: number) =>
    Promise.all([rx, hono].map((server) => load.load(server.port, JSON_ROUTE, { ...options, seconds })));
  await both(options.warmupSeconds);
  for (let round = 1; round <= options.rounds; round++) {
    const [rxRun, honoRun] = await both(options.seconds);
    if (rxRun!.errors + honoRun!.errors > 0)
      process.stdout.write(`  (${rx.runtime}: ${rxRun!.errors} rxrest, ${honoRun!.errors} hono errors)\n`);
    rxRates.push(rxRun!.requestsPerSecond);
    honoRates.push(honoRun!.requestsPerSecond);
    ratios.push(rxRun!.requestsPerSecond / honoRun!.requestsPerSecond);
  }
  return { rx: median(rxRates), hono: median(honoRates), ratio: median(ratios), ratios };
}

/** The fastest of `STREAM_ROUNDS` reads of each stream, the three read in turn each round. */
async function measureStreams(rx: RuntimeServer, hono: RuntimeServer) {
  const streams = [
    [rx, `/bench/sse?n=${ITEMS}`],
    [hono, `/bench/sse?n=${ITEMS}`],
    [hono, `/bench/loop?n=${ITEMS}`],
  ] as const;
  const best = streams.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < STREAM_ROUNDS; round++)
    for (const [i, [server, path]] of streams.entries())
      best[i] = Math.min(best[i]!, (await drain(server.port, path, false)).ms);
  const [rxMs, honoMs, loopMs] = best as [number, number, number];
  return { rxMs, honoMs, loopMs };
}

const perSecond = (ms: number): number => Math.round(ITEMS / (ms / 1000));
const two = (value: number): number => Math.round(value * 100) / 100;

/** Runs the benchmark on every runtime in turn (two servers at a time) and prints a line per measure. */
export async function runRuntimesBench(options: RuntimesOptions, note: (line: string) => void): Promise<RuntimeRow[]> {
  const load = findLoadGenerator(note);
  const pinning = cpuPinning();
  const loadOptions = { ...options, cpus: pinning?.load };
  note(
    `${load.name}, ${options.connections} connections each, rxrest and Hono loaded at once on the servers' CPU, ${options.warmupSeconds} s warm-up + ${options.rounds} rounds of ${options.seconds} s on ${JSON_ROUTE.name}; ` +
      `${ITEMS.toLocaleString('en-US')} SSE items read by one client, best of ${STREAM_ROUNDS}; ` +
      (pinning ? `servers on CPU ${pinning.server}, load on CPU ${pinning.load}` : 'not pinned'),
  );
  const folder = await bundleBenchApps();
  try {
    return await benchEach(folder, load, loadOptions, pinning?.server, note);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function benchEach(
  folder: string,
  load: LoadGenerator,
  options: RuntimesOptions,
  serverCpus: string | undefined,
  note: (line: string) => void,
): Promise<RuntimeRow[]> {
  const rows: RuntimeRow[] = [];
  for (const runtime of RUNTIMES) {
    const servers: RuntimeServer[] = [];
    try {
      for (const kind of ['rxrest', 'hono', 'hono-same-work'])
        servers.push(await startRuntimeServer(folder, runtime, kind, serverCpus));
      const [rx, hono, sameWork] = servers as [RuntimeServer, RuntimeServer, RuntimeServer];
      await check(servers, note);
      const got = await measureGet(load, rx, hono, options);
      const same = await measureGet(load, rx, sameWork, options);
      const streams = await measureStreams(rx, hono);
      const row: RuntimeRow = {
        runtime,
        rxrestRps: Math.round(got.rx),
        honoRps: Math.round(got.hono),
        getRatio: two(got.ratio),
        getLow: two(Math.min(...got.ratios)),
        getHigh: two(Math.max(...got.ratios)),
        sameWorkRps: Math.round(same.hono),
        sameWorkRatio: two(same.ratio),
        sameWorkLow: two(Math.min(...same.ratios)),
        sameWorkHigh: two(Math.max(...same.ratios)),
        rxrestItemsPerSec: perSecond(streams.rxMs),
        honoItemsPerSec: perSecond(streams.honoMs),
        loopItemsPerSec: perSecond(streams.loopMs),
        sseVsHono: two(streams.honoMs / streams.rxMs),
        sseVsLoop: two(streams.loopMs / streams.rxMs),
      };
      rows.push(row);
      note(
        `${runtime.padEnd(8)} GET rxrest ${row.rxrestRps} req/s, hono ${row.honoRps} req/s: rxrest ÷ hono ${row.getRatio} [${row.getLow}–${row.getHigh}] ` +
          `(target ≥ ${TARGET}: ${row.getRatio >= TARGET ? 'meets' : 'MISSES'})`,
      );
      note(
        `${''.padEnd(8)} GET rxrest ${Math.round(same.rx)} req/s, hono reading Accept and sending nosniff ${row.sameWorkRps} req/s: ` +
          `rxrest ÷ that ${row.sameWorkRatio} [${row.sameWorkLow}–${row.sameWorkHigh}]`,
      );
      note(
        `${''.padEnd(8)} SSE rxrest ${row.rxrestItemsPerSec}/s, hono streamSSE ${row.honoItemsPerSec}/s, hand-written loop ${row.loopItemsPerSec}/s: ` +
          `rxrest ÷ hono ${row.sseVsHono}, rxrest ÷ loop ${row.sseVsLoop} (target ≥ 1: ${row.sseVsLoop >= 1 ? 'meets' : 'MISSES'})`,
      );
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  return rows;
}
