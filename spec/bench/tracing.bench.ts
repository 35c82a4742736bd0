/**
 * Tracing benchmark: server CPU µs per request on `/hello` of two rxrest servers loaded by wrk in alternating
 * rounds: one without an OpenTelemetry SDK (tracing off: the API is not even loaded), one with the Node SDK
 * registered (a server span per request, batched, exported nowhere). Compare "off" with the load benchmark's rxrest
 * figure: the target is ≤ 1 µs over it.
 */
import { BENCH_ROUTES } from './bench-routes';
import { findLoadGenerator } from './load';
import { median } from './report';
import { clockTicksPerSecond, cpuPinning, cpuTicks, startServer, type ServerProcess } from './server-process';

const ROUNDS = 5;
const SECONDS = 5;
const CONNECTIONS = 50;

export async function runTracingBench(): Promise<Record<string, number>[]> {
  const note = (line: string): void => void process.stdout.write(`${line}\n`);
  const load = findLoadGenerator(note);
  const hello = BENCH_ROUTES[0]!;
  const pinning = cpuPinning();
  const ticks = clockTicksPerSecond();
  const cost = { off: [] as number[], sdk: [] as number[] };
  note(
    `${hello.path}: rxrest without and with the OpenTelemetry SDK, ${load.name} with ${CONNECTIONS} connections, ${SECONDS} s per run after 1 s of warm-up, ${ROUNDS} alternating rounds${pinning ? ', pinned' : ''}`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    for (const mode of round % 2 === 1 ? (['off', 'sdk'] as const) : (['sdk', 'off'] as const)) {
      const server: ServerProcess = await startServer('rxrest', {
        env: mode === 'sdk' ? { BENCH_TRACING: 'sdk' } : {},
        cpus: pinning?.server,
      });
      try {
        await load.load(server.port, hello, { connections: CONNECTIONS, seconds: 1, cpus: pinning?.load });
        const before = cpuTicks(server.pid);
        const result = await load.load(server.port, hello, {
          connections: CONNECTIONS,
          seconds: SECONDS,
          cpus: pinning?.load,
        });
        cost[mode].push((((cpuTicks(server.pid) - before) / ticks) * 1e6) / result.requests);
      } finally {
        await server.stop();
      }
    }
  }
  const off = median(cost.off);
  const sdk = median(cost.sdk);
  note(
    `  CPU µs/request (medians): tracing off ${off.toFixed(1)}, with the SDK ${sdk.toFixed(1)}: +${(sdk - off).toFixed(1)} µs per traced request`,
  );
  return [{ offUs: Math.round(off * 10) / 10, sdkUs: Math.round(sdk * 10) / 10 }];
}
