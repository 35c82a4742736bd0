/**
 * Workers benchmark: GET json req/s from the rxrest bench server with `framework.http.workers=2` against
 * `workers=1`, loaded by wrk in alternating rounds of the same run. Nothing is pinned: the workers need every
 * core, and wrk shares them, so on a two-core machine the gain is bounded by the load generator's own share.
 */
import { BENCH_ROUTES } from './bench-routes';
import { findLoadGenerator } from './load';
import { startServer } from './server-process';

const ROUNDS = 5;
const SECONDS = 5;
const CONNECTIONS = 100;

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Runs the benchmark and prints its lines; returns the row (req/s medians and their ratio). */
export async function runWorkersBench(): Promise<Record<string, number>[]> {
  const note = (line: string): void => void process.stdout.write(`${line}\n`);
  const load = findLoadGenerator(note);
  const route = BENCH_ROUTES[0]!;
  const rates = new Map<number, number[]>([
    [1, []],
    [2, []],
  ]);
  note(
    `${route.name} (${route.path}), ${load.name} with ${CONNECTIONS} connections, ${SECONDS} s per run after 1 s of warm-up, ${ROUNDS} rounds, each server alone, not pinned`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    for (const workers of round % 2 === 1 ? [1, 2] : [2, 1]) {
      const server = await startServer('rxrest', { env: { BENCH_WORKERS: String(workers) } });
      try {
        await load.load(server.port, route, { connections: CONNECTIONS, seconds: 1 });
        const result = await load.load(server.port, route, { connections: CONNECTIONS, seconds: SECONDS });
        if (result.errors > 0) note(`  WARNING workers=${workers}: ${result.errors} errors`);
        rates.get(workers)!.push(result.requestsPerSecond);
      } finally {
        await server.stop();
      }
    }
  }
  const one = median(rates.get(1)!);
  const two = median(rates.get(2)!);
  note(
    `  workers=1 ${Math.round(one)} req/s, workers=2 ${Math.round(two)} req/s (medians): ${(two / one).toFixed(2)}×`,
  );
  return [{ workers1: Math.round(one), workers2: Math.round(two), ratio: Math.round((two / one) * 100) / 100 }];
}

if (require.main === module) void runWorkersBench();
