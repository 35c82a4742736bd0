/** `npm run bench`: the request benchmark (rxrest vs bare Hono vs node:http; the targets are in docs/benchmarks.md), then the streaming and multipart ones. */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PARTS, type Part } from './bench-parts';
import { BENCH_ROUTES, type BenchRoute } from './bench-routes';
import { runCachegrindBench } from './cachegrind.bench';
import { runRuntimesBench } from './runtimes.bench';
import { findLoadGenerator, type LoadGenerator, type LoadOptions } from './load';
import { rssBytes } from './child-server';
import { summarizeProfile } from './profile-summary';
import { formatHeadToHead, formatRoute, type Sample } from './report';
import {
  clockTicksPerSecond,
  cpuPinning,
  cpuTicks,
  SERVER_NAMES,
  startServer,
  type CpuPinning,
  type ServerName,
  type ServerProcess,
} from './server-process';

/** What a plain `npm run bench` runs: the cache-simulator counts take minutes per route and need valgrind, so only on request. */
const DEFAULT_PARTS: readonly Part[] = PARTS.filter((part) => part !== 'cachegrind');

interface BenchOptions extends LoadOptions {
  readonly parts: readonly Part[];
  readonly rounds: number;
  readonly warmupSeconds: number;
  /** Only the routes whose name contains this (case-insensitive), e.g. `post`. */
  readonly route?: string;
  /** Profile the rxrest server (`--cpu-prof`) instead of comparing. */
  readonly profile: boolean;
  /** Keep the servers and the load generator on CPUs of their own (unless `--no-pin`, or `taskset` is missing). */
  readonly pin: boolean;
  /** Print every run, not only the summary of each route. */
  readonly verbose: boolean;
  /** With `--only=capacity`: where a connection's memory goes (heap snapshots) instead of the capacity figures. */
  readonly heap: boolean;
}

const note = (line: string): void => void process.stdout.write(`${line}\n`);

const USAGE = `usage: node dist/spec/bench/run.js [--all | --only=load|streaming|multipart|json|openapi|metrics|workers|client|broadcast|ingest|http2|security|websocket|tracing|mcp|capacity|runtimes|cachegrind] [--rounds=3] [--seconds=5]
       [--warmup=1] [--connections=50] [--route=post] [--no-pin] [--verbose] [--profile] [--heap]
  --verbose: print every run as it ends
  --no-pin: let the OS place the servers and wrk (by default each has a CPU of its own when taskset can do it)
  --profile: CPU-profile rxrest and Hono on each route
  --heap: with --only=capacity, where an idle connection's memory goes (heap snapshot diff by constructor)
  --only=cachegrind: instructions and cache misses per request under valgrind (minutes per route; not in the default run)`;

/** A whole number from 1 to 600 (wrk takes whole seconds). */
function positive(value: string | undefined, fallback: number, name: string): number {
  const parsed = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 600)
    throw new Error(`--${name} must be a whole number from 1 to 600, got ${value}\n${USAGE}`);
  return parsed;
}

function readOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      all: { type: 'boolean' },
      only: { type: 'string' },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      route: { type: 'string' },
      profile: { type: 'boolean' },
      'no-pin': { type: 'boolean' },
      verbose: { type: 'boolean' },
      heap: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    note(USAGE);
    process.exit(0);
  }
  // `--only=load,streaming` runs several parts, in the order given.
  const only = values.only?.split(',') as Part[] | undefined;
  if (only?.some((part) => !PARTS.includes(part)))
    throw new Error(`--only must be one or more (comma-separated) of ${PARTS.join(', ')}\n${USAGE}`);
  return {
    parts: values.all ? PARTS : (only ?? DEFAULT_PARTS),
    rounds: positive(values.rounds, 3, 'rounds'),
    seconds: positive(values.seconds, 5, 'seconds'),
    warmupSeconds: positive(values.warmup, 1, 'warmup'),
    connections: positive(values.connections, 50, 'connections'),
    profile: values.profile === true,
    pin: values['no-pin'] !== true,
    verbose: values.verbose === true,
    heap: values.heap === true,
    route: values.route?.toLowerCase(),
  };
}

/** One answer from each server before any load: a benchmark of wrong answers measures nothing. */
async function checkAnswers(server: ServerProcess, route: BenchRoute): Promise<void> {
  const init =
    route.body === undefined
      ? {}
      : { method: route.method, body: route.body, headers: { 'content-type': 'application/json' } };
  const response = await fetch(`http://127.0.0.1:${server.port}${route.path}`, init);
  const text = await response.text();
  if (response.status !== 200 || text !== route.expected) {
    note(
      `  WARNING ${server.name} ${route.name}: got ${response.status} ${text.slice(0, 200)}, expected ${route.expected}`,
    );
  }
}

/**
 * Warm up, then one measured load run of each server at the same time (one load generator each), with each
 * server's CPU time read from /proc around it. One server: a plain run.
 */
async function measure(
  load: LoadGenerator,
  servers: readonly ServerProcess[],
  route: BenchRoute,
  round: number,
  options: BenchOptions,
  ticksPerSecond: number,
): Promise<Sample[]> {
  await Promise.all(
    servers.map((server) => load.load(server.port, route, { ...options, seconds: options.warmupSeconds })),
  );
  const before = servers.map((server) => cpuTicks(server.pid));
  const results = await Promise.all(servers.map((server) => load.load(server.port, route, options)));
  return servers.map((server, i): Sample => {
    const result = results[i]!;
    const cpuMicros = ((cpuTicks(server.pid) - before[i]!) / ticksPerSecond) * 1e6;
    return {
      server: server.name,
      round,
      route: route.name,
      requestsPerSecond: result.requestsPerSecond,
      p99Ms: result.p99Ms,
      cpuMicrosPerRequest: result.requests > 0 ? cpuMicros / result.requests : Number.NaN,
      errors: result.errors,
    };
  });
}

const selected = (options: BenchOptions): readonly BenchRoute[] =>
  BENCH_ROUTES.filter((route) => options.route === undefined || route.name.toLowerCase().includes(options.route));

/** Starts the servers one after the other (so that start-up work does not overlap); if one fails, stops the others before reporting why. */
async function startAll(pinning: CpuPinning | undefined): Promise<ServerProcess[]> {
  const servers: ServerProcess[] = [];
  try {
    for (const name of SERVER_NAMES) servers.push(await startServer(name, { cpus: pinning?.server }));
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    throw error;
  }
  return servers;
}

/** Each server's RSS once it has settled after listening, before its first request. */
async function rssAtRest(servers: readonly ServerProcess[]): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return servers.map((server) => `${server.name} ${(rssBytes(server.pid) / 1048576).toFixed(1)} MB`).join(', ');
}

/** Where the processes run: pinned when asked and possible (see `cpuPinning`), said in the header. */
function placement(options: BenchOptions): { pinning: CpuPinning | undefined; text: string } {
  if (!options.pin) return { pinning: undefined, text: 'not pinned (--no-pin)' };
  const pinning = cpuPinning();
  if (!pinning) return { pinning, text: 'not pinned (taskset missing or one CPU)' };
  return { pinning, text: `servers on CPU ${pinning.server}, load generator on CPU ${pinning.load}` };
}

/**
 * For each route, `rounds` rounds of the three servers one after the other, the order reversed every other
 * round (rxrest, hono, node; then node, hono, rxrest) so that drift (thermal, noisy neighbours) hits all alike
 * and no server always runs first. Then, when pinned, `rounds` head-to-head rounds: rxrest and Hono loaded at
 * the same time on the same server CPU, which gives the verdict (see `formatHeadToHead`).
 */
async function runRequestBench(options: BenchOptions): Promise<void> {
  const load = findLoadGenerator(note);
  const ticksPerSecond = clockTicksPerSecond();
  const { pinning, text } = placement(options);
  const loadOptions = { ...options, cpus: pinning?.load };
  note(
    `Request benchmark: ${load.name}, ${options.connections} connections, ${options.warmupSeconds} s warm-up + ${options.seconds} s per run, ${options.rounds} rounds; ${text}\n`,
  );
  const servers = await startAll(pinning);
  note(`RSS at rest, before the first request: ${await rssAtRest(servers)}\n`);
  try {
    for (const route of selected(options)) {
      for (const server of servers) await checkAnswers(server, route);
      const samples: Sample[] = [];
      for (let round = 1; round <= options.rounds; round++) {
        const order = round % 2 === 1 ? servers : [...servers].reverse();
        for (const server of order) {
          const [sample] = await measure(load, [server], route, round, loadOptions, ticksPerSecond);
          samples.push(sample!);
          if (options.verbose)
            note(
              `  round ${round} ${server.name.padEnd(7)} ${Math.round(sample!.requestsPerSecond)} req/s  ${sample!.cpuMicrosPerRequest.toFixed(1)} CPU µs/req`,
            );
        }
      }
      note(formatRoute(route.name, samples, SERVER_NAMES, pinning === undefined));
      if (pinning) note(formatHeadToHead(await headToHead(load, servers, route, loadOptions, ticksPerSecond), samples));
      note('');
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/**
 * rxrest and Hono under load at the same time, both on the one server CPU: the scheduler shares it out, so
 * their requests/s stand in the inverse ratio of their costs per request, and whatever slows the machine down
 * (noisy neighbours, frequency) slows both within the same seconds.
 */
async function headToHead(
  load: LoadGenerator,
  servers: readonly ServerProcess[],
  route: BenchRoute,
  options: BenchOptions,
  ticksPerSecond: number,
): Promise<Sample[]> {
  const pair = servers.filter((server) => server.name === 'rxrest' || server.name === 'hono');
  const samples: Sample[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const measured = await measure(
      load,
      round % 2 === 1 ? pair : [...pair].reverse(),
      route,
      round,
      options,
      ticksPerSecond,
    );
    samples.push(...measured);
    if (options.verbose)
      note(
        `  head-to-head ${round}  ${measured.map((s) => `${s.server} ${Math.round(s.requestsPerSecond)} req/s`).join('  ')}`,
      );
  }
  return samples;
}

/** One route on one server with the in-process profiler running after the warm-up; returns req/s while profiled. */
async function profileRun(
  load: LoadGenerator,
  name: ServerName,
  route: BenchRoute,
  file: string,
  options: BenchOptions,
): Promise<number> {
  const server = await startServer(name, { profileFile: file });
  try {
    await load.load(server.port, route, { ...options, seconds: options.warmupSeconds });
    await server.startProfiling();
    return (await load.load(server.port, route, options)).requestsPerSecond;
  } finally {
    await server.stop();
  }
}

/** Profiles rxrest (in detail) and bare Hono (for comparison) on every route, then prints where their time went. */
async function profileServers(options: BenchOptions): Promise<void> {
  const load = findLoadGenerator(note);
  const dir = mkdtempSync(join(tmpdir(), 'rxrest-prof-'));
  for (const route of selected(options)) {
    for (const [name, top] of [
      ['rxrest', 30],
      ['hono', 12],
    ] as const) {
      const file = join(dir, `${name}-${route.name.replace(/\W+/g, '-')}.cpuprofile`);
      const rate = await profileRun(load, name, route, file, options);
      note(`=== ${name} on ${route.name} (${Math.round(rate)} req/s while profiled)\n${summarizeProfile(file, top)}\n`);
    }
  }
  note(`Profiles kept in ${dir} (open them in Chrome DevTools > Performance)`);
}

/** Prints the rows a bench returns (for benches that return their results instead of printing them). */
function printRows(rows: unknown): void {
  if (!Array.isArray(rows)) return;
  for (const row of rows as unknown[]) {
    if (typeof row !== 'object' || row === null) continue;
    const cells = Object.entries(row).map(
      ([key, value]) =>
        `${key}=${typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(2) : String(value)}`,
    );
    note(`  ${cells.join('  ')}`);
  }
}

/** Runs `./<file>`'s `exportName()` if another engineer's bench exists; a missing one is skipped with a note. */
async function runOptional(part: Part, file: string, exportName: string, print = false): Promise<void> {
  let loaded: Record<string, unknown>;
  try {
    loaded = require(`./${file}`) as Record<string, unknown>;
  } catch (error) {
    // Only the bench file itself being absent is a skip; a broken import inside it is a real failure.
    const absent =
      (error as { code?: string }).code === 'MODULE_NOT_FOUND' &&
      String((error as Error).message).includes(`./${file}'`);
    if (!absent) throw error;
    note(`(${part} benchmark skipped: spec/bench/${file}.ts does not exist yet)`);
    return;
  }
  const bench = loaded[exportName];
  if (typeof bench !== 'function') return note(`(${part} benchmark skipped: ${file} exports no ${exportName}())`);
  note(`\n${part[0]?.toUpperCase()}${part.slice(1)} benchmark`);
  const rows = await (bench as () => unknown)();
  if (print) printRows(rows);
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  if (options.profile) return profileServers(options);
  for (const part of options.parts) {
    if (part === 'load') await runRequestBench(options);
    if (part === 'streaming') await runOptional(part, 'streaming.bench', 'runStreamingBench');
    if (part === 'multipart') await runOptional(part, 'multipart.bench', 'runMultipartBench', true);
    if (part === 'json') await runOptional(part, 'json.bench', 'runJsonBench', true);
    if (part === 'openapi') await runOptional(part, 'openapi.bench', 'runOpenApiBench', true);
    if (part === 'metrics') await runOptional(part, 'metrics.bench', 'runMetricsBench', true);
    if (part === 'workers') await runOptional(part, 'workers.bench', 'runWorkersBench');
    if (part === 'client') await runOptional(part, 'client.bench', 'runClientBench');
    if (part === 'broadcast') await runOptional(part, 'broadcast.bench', 'runBroadcastBench');
    if (part === 'ingest') await runOptional(part, 'ingest.bench', 'runIngestBench');
    if (part === 'http2') await runOptional(part, 'http2.bench', 'runHttp2Bench');
    if (part === 'security') await runOptional(part, 'security.bench', 'runSecurityBench');
    if (part === 'websocket') await runOptional(part, 'websocket.bench', 'runWebSocketBench');
    if (part === 'tracing') await runOptional(part, 'tracing.bench', 'runTracingBench', true);
    if (part === 'mcp') await runOptional(part, 'mcp.bench', 'runMcpBench');
    if (part === 'capacity' && options.heap) await runOptional(part, 'capacity-heap', 'runCapacityHeap');
    if (part === 'capacity' && !options.heap) await runOptional(part, 'capacity.bench', 'runCapacityBench');
    if (part === 'runtimes') {
      note('\nRuntimes benchmark');
      await runRuntimesBench(options, note);
    }
    if (part === 'cachegrind') await runCachegrindBench(selected(options), note);
  }
}

// It reports, it does not fail: a missed target is read in the table, never from the exit code (only a crash is 1).
main().then(
  () => process.exit(0),
  (error: unknown) => {
    note(`bench aborted: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
