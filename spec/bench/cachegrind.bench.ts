/**
 * `npm run bench -- --only=cachegrind`: what one request costs in steady state, counted by valgrind's
 * cache simulator instead of timed. No neighbour, clock or scheduler changes these counts, so a change
 * of a few hundred instructions shows, where the timed bench moves by a few percent from run to run.
 */
import { execFileSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import type { BenchRoute } from './bench-routes';
import { startServer, type ServerName } from './server-process';

/** Requests served before the counted window (enough for V8 to have compiled the hot path), and in it. */
const WARM_REQUESTS = 13_000;
const COUNTED_REQUESTS = 10_000;

/** What valgrind counts, per request. */
export interface CacheCounts {
  readonly instructions: number;
  readonly instructionMisses: number;
  readonly dataMisses: number;
}

const COUNTERS = { 'I refs': 'instructions', 'I1 misses': 'instructionMisses', 'D1 misses': 'dataMisses' } as const;

/** Reads the totals of valgrind's closing summary (`==pid== I   refs:      4,442,759,623`...). */
export function parseCachegrindSummary(stderr: string): CacheCounts {
  const counts: Record<string, number> = {};
  for (const line of stderr.split('\n')) {
    const match = /==\d+==\s+(I|I1|D|D1|LL)\s+(refs|misses):\s+([\d,]+)/.exec(line);
    if (match) counts[`${match[1]} ${match[2]}`] = Number(match[3]!.replaceAll(',', ''));
  }
  const result: Record<string, number> = {};
  for (const [label, key] of Object.entries(COUNTERS)) {
    const value = counts[label];
    if (value === undefined) throw new Error(`valgrind printed no "${label}" total:\n${stderr.slice(-2000)}`);
    result[key] = value;
  }
  return result as unknown as CacheCounts;
}

function send(port: number, route: BenchRoute, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers =
      route.body === undefined
        ? {}
        : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(route.body) };
    const sent = request(
      { host: '127.0.0.1', port, path: route.path, method: route.method, agent, headers },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`${route.name}: status ${response.statusCode}`));
        response.resume();
        response.once('end', resolve);
        response.once('error', reject);
      },
    );
    sent.once('error', reject);
    sent.end(route.body);
  });
}

/** One server under valgrind answering `count` requests, one at a time on one keep-alive connection: its totals. */
async function countRun(name: ServerName, route: BenchRoute, count: number): Promise<CacheCounts> {
  const server = await startServer(name, {
    launcher: ['valgrind', '--tool=cachegrind', '--cache-sim=yes', '--cachegrind-out-file=/dev/null'],
    // Same hash and random seeds every run; V8's compiler and collector on the main thread, so their work is counted too.
    nodeFlags: ['--predictable', '--hash-seed=1', '--random-seed=1', '--single-threaded'],
    startTimeoutMs: 120_000,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < count; i++) await send(server.port, route, agent);
  } finally {
    agent.destroy();
    await server.stop();
  }
  return parseCachegrindSummary(server.stderr());
}

/**
 * Per request in steady state: a run of `WARM_REQUESTS` and one of `WARM_REQUESTS + COUNTED_REQUESTS`,
 * side by side, their difference divided by `COUNTED_REQUESTS`. Start-up and compilation fall out.
 */
export async function countPerRequest(name: ServerName, route: BenchRoute): Promise<CacheCounts> {
  const [short, long] = await Promise.all([
    countRun(name, route, WARM_REQUESTS),
    countRun(name, route, WARM_REQUESTS + COUNTED_REQUESTS),
  ]);
  const per = (key: keyof CacheCounts): number => (long[key] - short[key]) / COUNTED_REQUESTS;
  return {
    instructions: per('instructions'),
    instructionMisses: per('instructionMisses'),
    dataMisses: per('dataMisses'),
  };
}

function hasValgrind(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const thousands = (value: number): string => `${(value / 1000).toFixed(1)}k`;

/** Counts rxrest and bare Hono on each route and prints them with their ratios (a few minutes per route). */
export async function runCachegrindBench(routes: readonly BenchRoute[], note: (line: string) => void): Promise<void> {
  if (!hasValgrind())
    return note('(cachegrind benchmark skipped: valgrind is not installed; apt-get install -y valgrind)');
  note(
    `Cachegrind: per request over requests ${WARM_REQUESTS + 1}–${WARM_REQUESTS + COUNTED_REQUESTS}, one keep-alive connection, node --predictable --single-threaded`,
  );
  for (const route of routes) {
    const rxrest = await countPerRequest('rxrest', route);
    const hono = await countPerRequest('hono', route);
    const ratio = (key: keyof CacheCounts): string => (rxrest[key] / hono[key]).toFixed(3);
    note(
      `  ${route.name.padEnd(16)} instructions rxrest ${thousands(rxrest.instructions)} hono ${thousands(hono.instructions)} (×${ratio('instructions')})` +
        `   I1 misses ${Math.round(rxrest.instructionMisses)} / ${Math.round(hono.instructionMisses)} (×${ratio('instructionMisses')})` +
        `   D1 misses ${Math.round(rxrest.dataMisses)} / ${Math.round(hono.dataMisses)} (×${ratio('dataMisses')})`,
    );
  }
}
