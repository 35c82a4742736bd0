/** Turns the interleaved runs into medians, ratios to raw node:http and to the peers, the targets, and a printed table. */
import type { ServerName } from './server-process';

/** One load run against one server. */
export interface Sample {
  readonly server: ServerName;
  /** The round it belongs to: the servers of one round ran one after the other, minutes apart at most. */
  readonly round: number;
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

/** The targets on every route: rxrest's requests/s at or above Hono's and Fastify's, its CPU per request at or below Hono's. */
export const TARGETS = { throughput: 1, cpu: 1 } as const;

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function summarize(samples: readonly Sample[]): Summary {
  return {
    requestsPerSecond: median(samples.map((s) => s.requestsPerSecond)),
    p99Ms: median(samples.map((s) => s.p99Ms)),
    cpuMicrosPerRequest: median(samples.map((s) => s.cpuMicrosPerRequest)),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
  };
}

/** One server against a baseline: how many times its throughput, and its CPU per request. */
export interface Ratios {
  readonly throughput: number;
  readonly cpu: number;
}

/** A paired ratio: the median over the rounds of `server`'s figure over the baseline's in the same round, and its range. */
export interface PairedRatio {
  readonly median: number;
  readonly low: number;
  readonly high: number;
}

/**
 * The ratios of `server` to `baseline`, round by round, then their median. Machine speed drifts over
 * minutes (a shared VM most of all); runs of one round are seconds apart, so a per-round ratio cancels
 * most of the drift that a ratio of two medians taken over the whole run keeps.
 */
export function pairedRatios(
  samples: readonly Sample[],
  server: ServerName,
  baseline: ServerName,
): { throughput: PairedRatio; cpu: PairedRatio } {
  const throughput: number[] = [];
  const cpu: number[] = [];
  for (const sample of samples) {
    if (sample.server !== server) continue;
    const base = samples.find((other) => other.server === baseline && other.round === sample.round);
    if (!base) continue;
    throughput.push(sample.requestsPerSecond / base.requestsPerSecond);
    cpu.push(sample.cpuMicrosPerRequest / base.cpuMicrosPerRequest);
  }
  const paired = (values: number[]): PairedRatio => ({
    median: median(values),
    low: Math.min(...values),
    high: Math.max(...values),
  });
  return { throughput: paired(throughput), cpu: paired(cpu) };
}

const number = (value: number, digits: number): string =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';

const verdict = (ok: boolean): string => (ok ? 'meets' : 'MISSES');

const range = (ratio: PairedRatio): string =>
  `${number(ratio.median, 2)} [${number(ratio.low, 2)}–${number(ratio.high, 2)}]`;

/**
 * The table of one route: a row per server (medians of its runs) with its requests/s and CPU as ratios to raw
 * node:http (median [lowest–highest] of the per-round ratios), then rxrest against each peer, with the targets
 * (unless `verdict` is false: the head-to-head rounds give it then).
 */
export function formatRoute(
  route: string,
  samples: readonly Sample[],
  servers: readonly ServerName[],
  withVerdict = true,
): string {
  const rounds = new Set(samples.map((sample) => sample.round)).size;
  const lines = [
    `${route}  (medians of ${rounds} rounds; ratios: median [range] of the per-round ratios)`,
    `  ${'server'.padEnd(9)}${'req/s'.padStart(10)}${'× raw'.padStart(20)}${'CPU µs/req'.padStart(12)}${'× raw'.padStart(20)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}`,
  ];
  for (const server of servers) {
    const s = summarize(samples.filter((sample) => sample.server === server));
    const toRaw = server === 'node' || !servers.includes('node') ? undefined : pairedRatios(samples, server, 'node');
    lines.push(
      `  ${server.padEnd(9)}${number(s.requestsPerSecond, 0).padStart(10)}${(toRaw ? range(toRaw.throughput) : '1.00').padStart(20)}` +
        `${number(s.cpuMicrosPerRequest, 1).padStart(12)}${(toRaw ? range(toRaw.cpu) : '1.00').padStart(20)}${number(s.p99Ms, 2).padStart(9)}${String(s.errors).padStart(8)}`,
    );
  }
  for (const peer of ['hono', 'fastify'] as const) {
    if (!servers.includes('rxrest') || !servers.includes(peer)) continue;
    const r = pairedRatios(samples, 'rxrest', peer);
    const cpuTarget = peer === 'hono' ? ` (target ≤ ${TARGETS.cpu}: ${verdict(r.cpu.median <= TARGETS.cpu)})` : '';
    lines.push(
      withVerdict
        ? `  rxrest/${peer.padEnd(8)} req/s ${range(r.throughput)} (target ≥ ${TARGETS.throughput}: ${verdict(r.throughput.median >= TARGETS.throughput)})   CPU/req ${range(r.cpu)}${cpuTarget}`
        : `  rxrest/${peer.padEnd(8)} req/s ${range(r.throughput)}   CPU/req ${range(r.cpu)}   (one after the other)`,
    );
  }
  return lines.join('\n');
}

/** Below this share of the sequential rate, the machine was busier during the head-to-head rounds than before them. */
const DISTURBED_SHARE = 0.8;

/**
 * The head-to-head rounds of one route, rxrest and Hono loaded at the same time on the same CPU: the ratio
 * of their requests/s in each round is the inverse ratio of their costs per request, with the machine's
 * drift cancelled (both run through the same seconds), so this median is the verdict on the target.
 *
 * Sharing one CPU, the two together should answer about as many requests per second as either one alone
 * (the mean of their medians in `sequential`). A host busy enough to make them answer far fewer slows
 * them unequally too (it thrashes the caches that the one running more distinct code needs most), so
 * the line then says to run again.
 */
export function formatHeadToHead(samples: readonly Sample[], sequential: readonly Sample[]): string {
  const rounds = new Set(samples.map((sample) => sample.round)).size;
  const r = pairedRatios(samples, 'rxrest', 'hono');
  const combined: number[] = [];
  for (const round of new Set(samples.map((sample) => sample.round))) {
    combined.push(
      samples.filter((sample) => sample.round === round).reduce((sum, sample) => sum + sample.requestsPerSecond, 0),
    );
  }
  const alone =
    (summarize(sequential.filter((s) => s.server === 'rxrest')).requestsPerSecond +
      summarize(sequential.filter((s) => s.server === 'hono')).requestsPerSecond) /
    2;
  const share = median(combined) / alone;
  const lines = [
    `  head to head (${rounds} rounds, both at once on one CPU)  rxrest/hono req/s ${range(r.throughput)}` +
      ` (target ≥ ${TARGETS.throughput}: ${verdict(r.throughput.median >= TARGETS.throughput)})` +
      `   CPU/req ${range(r.cpu)} (target ≤ ${TARGETS.cpu}: ${verdict(r.cpu.median <= TARGETS.cpu)})`,
    `  together ${number(median(combined), 0)} req/s, ${number(share, 2)} of one alone` +
      (share < DISTURBED_SHARE ? ': the host was busier than in the rounds above, run again' : ''),
  ];
  return lines.join('\n');
}
