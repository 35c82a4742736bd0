/** Metrics benchmark: the CPU a request costs with metrics on and off, in process (`app.fetch`), rounds alternating. */
import { GET, Path, Produces, RestApplication, resolveConfig, type RestApp } from '../../lib';
import { FRUITS } from './bench-routes';

const WARMUP = 20_000;
const REQUESTS = 100_000;
const ROUNDS = 9;

@Path('bench')
class MetricsBenchResource {
  @GET
  @Path('fruits')
  @Produces('application/json')
  fruits(): typeof FRUITS {
    return FRUITS;
  }
}

async function cpuPerRequest(app: RestApp): Promise<number> {
  const request = () => new Request('http://localhost/bench/fruits');
  for (let i = 0; i < WARMUP; i++) await app.fetch(request());
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await app.fetch(request());
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

/** Runs the benchmark and prints its line; returns the row (µs of CPU per request, medians of the rounds). */
export async function runMetricsBench(): Promise<Record<string, number>[]> {
  const build = (enabled: boolean) =>
    RestApplication.build({
      classes: [MetricsBenchResource],
      config: resolveConfig({ overrides: { 'framework.metrics.enabled': enabled } }),
    });
  const off: number[] = [];
  const on: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    off.push(await cpuPerRequest(build(false)));
    on.push(await cpuPerRequest(build(true)));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const row = { offMicros: Math.round(median(off) * 100) / 100, onMicros: Math.round(median(on) * 100) / 100 };
  // The median of the per-round differences: each pair ran back to back, so it shares the machine's state.
  const cost = median(on.map((value, round) => value - off[round]!));
  process.stdout.write(
    `GET json in process, medians of ${ROUNDS} rounds: ${row.offMicros} µs CPU a request without metrics, ${row.onMicros} µs with them; ` +
      `the median of the rounds' differences +${cost.toFixed(2)} µs (${((cost / row.offMicros) * 100).toFixed(1)} %; target ≤ 1 µs or ≤ 5 %, the larger)\n`,
  );
  return [{ ...row, costMicros: Math.round(cost * 100) / 100 }];
}

if (require.main === module) void runMetricsBench();
