/** Turns the interleaved runs into medians, ratios against the targets of DESIGN §9, and a printed table. */
import type { ServerName } from './server-process';

/** One load run against one server. */
export interface Sample {
  readonly server: ServerName;
  readonly route: string;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  /** Server CPU (user + system, from the OS) divided by the requests completed. */
  readonly cpuMicrosPerRequest: number;
  readonly errors: number;
}

/** The median of each measure over the rounds of one server on one route. */
export interface Summary {
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly cpuMicrosPerRequest: number;
  readonly errors: number;
}

/** DESIGN §9: rxrest within these bounds of bare Hono on every route. */
export const TARGETS = { throughput: 0.9, cpu: 1.15 } as const;

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function summarize(samples: readonly Sample[]): Summary {
  return {
    requestsPerSecond: median(samples.map((s) => s.requestsPerSecond)),
    p99Ms: median(samples.map((s) => s.p99Ms)),
    cpuMicrosPerRequest: median(samples.map((s) => s.cpuMicrosPerRequest)),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
  };
}

/** rxrest against a baseline: how many times its throughput, and its CPU per request. */
export interface Ratios {
  readonly throughput: number;
  readonly cpu: number;
}

export function ratios(rxrest: Summary, baseline: Summary): Ratios {
  return { throughput: rxrest.requestsPerSecond / baseline.requestsPerSecond, cpu: rxrest.cpuMicrosPerRequest / baseline.cpuMicrosPerRequest };
}

const number = (value: number, digits: number): string =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';

const verdict = (ok: boolean): string => (ok ? 'meets' : 'MISSES');

/** The table of one route: a row per server (medians), then rxrest's ratios to Hono (with targets) and to node:http. */
export function formatRoute(route: string, rounds: number, summaries: ReadonlyMap<ServerName, Summary>): string {
  const lines = [`${route}  (median of ${rounds} interleaved rounds)`, `  ${'server'.padEnd(8)}${'req/s'.padStart(12)}${'p99 ms'.padStart(10)}${'CPU µs/req'.padStart(13)}${'errors'.padStart(9)}`];
  for (const [server, s] of summaries) {
    lines.push(`  ${server.padEnd(8)}${number(s.requestsPerSecond, 0).padStart(12)}${number(s.p99Ms, 2).padStart(10)}${number(s.cpuMicrosPerRequest, 1).padStart(13)}${String(s.errors).padStart(9)}`);
  }
  const rxrest = summaries.get('rxrest');
  const hono = summaries.get('hono');
  const node = summaries.get('node');
  if (rxrest && hono) {
    const r = ratios(rxrest, hono);
    lines.push(
      `  rxrest/hono  req/s ${number(r.throughput, 2)} (target ≥ ${TARGETS.throughput}: ${verdict(r.throughput >= TARGETS.throughput)})` +
        `   CPU/req ${number(r.cpu, 2)} (target ≤ ${TARGETS.cpu}: ${verdict(r.cpu <= TARGETS.cpu)})`,
    );
  }
  if (rxrest && node) {
    const r = ratios(rxrest, node);
    lines.push(`  rxrest/node  req/s ${number(r.throughput, 2)}   CPU/req ${number(r.cpu, 2)}`);
  }
  if (hono && node) {
    const r = ratios(hono, node);
    lines.push(`  hono/node    req/s ${number(r.throughput, 2)}   CPU/req ${number(r.cpu, 2)}`);
  }
  return lines.join('\n');
}
