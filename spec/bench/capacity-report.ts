/** The capacity bench's table: one row per server at one N, rxrest's figures also as ratios of the baseline's. */
import type { Transport } from './capacity-fleet';
import type { Opened } from './capacity-measure';
import { formatSlope, type Slope } from './memory-slope';

export type ServerKind = 'baseline' | 'rxrest';

export interface CapacityResult {
  readonly kind: ServerKind;
  readonly transport: Transport;
  readonly n: number;
  readonly opened: Opened;
  /** RSS and JS heap per connection. */
  readonly rss: Slope;
  readonly heap: Slope;
  /** Server CPU per heartbeat round, per 10,000 idle connections. */
  readonly cpuMsPerRound: number;
  /** Connections open that heard a heartbeat lately, and those that got the event. */
  readonly alive: number;
  readonly events: number;
  /** From publication to the last client receiving the event. */
  readonly eventMs: number;
}

const BASELINE_NAME: Record<Transport, string> = { sse: 'raw node:http', ws: 'bare ws' };
const TARGET: Record<Transport, number> = { sse: 1.2, ws: 1.5 };
const count = (value: number) => value.toLocaleString('en');

/** RSS at rest plus a million connections at the measured slope, in GB. */
const millionGb = (result: CapacityResult) =>
  (result.opened.readings[0]!.memory.rss + result.rss.bytes * 1e6) / 1024 ** 3;

function row(result: CapacityResult, base: CapacityResult | undefined): string {
  const ratio = (value: number, of: number) => (base ? ` (${(value / of).toFixed(2)}×)` : '');
  const last = result.opened.readings.at(-1)!.memory;
  return [
    result.kind === 'baseline' ? BASELINE_NAME[result.transport] : 'rxrest',
    `${formatSlope(result.rss)}${ratio(result.rss.bytes, base?.rss.bytes ?? 1)}`,
    `${(result.heap.bytes / 1024).toFixed(2)} KB${ratio(result.heap.bytes, base?.heap.bytes ?? 1)}`,
    `${(result.opened.openMs / 1000).toFixed(1)} s${ratio(result.opened.openMs, base?.opened.openMs ?? 1)}`,
    `${result.cpuMsPerRound.toFixed(1)} ms${ratio(result.cpuMsPerRound, base?.cpuMsPerRound ?? 1)}`,
    `${(last.rss / 1048576).toFixed(0)} MB`,
    `${millionGb(result).toFixed(1)} GB`,
    `${count(result.alive)} of ${count(result.n)}${result.opened.failed ? ` (${result.opened.failed} failed to open: ${result.opened.error})` : ''}`,
    `${count(result.events)} in ${Math.round(result.eventMs)} ms`,
  ].join(' | ');
}

/** The table of one transport at one N: the baseline first, then rxrest with its ratios and the target. */
export function formatCapacityTable(results: readonly CapacityResult[], heartbeatMs: number): string {
  const base = results.find((result) => result.kind === 'baseline');
  const rxrest = results.find((result) => result.kind === 'rxrest');
  const first = results[0]!;
  const what = first.transport === 'sse' ? 'idle SSE streams' : 'idle WebSockets';
  const lines = [
    `\n${count(first.n)} ${what}`,
    `| server | RSS per connection | JS heap per connection | time to open all | heartbeat CPU per round per 10,000 | RSS at N | RAM for a million | alive at the end | got the event |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((result) => `| ${row(result, result.kind === 'rxrest' ? base : undefined)} |`),
  ];
  if (base && rxrest) {
    const ratio = rxrest.rss.bytes / base.rss.bytes;
    lines.push(
      `rxrest ÷ ${BASELINE_NAME[first.transport]}: ${ratio.toFixed(2)}× memory per connection (target ≤ ${TARGET[first.transport]}×); ` +
        `heartbeats every ${heartbeatMs / 1000} s, so at rxrest's default interval a round costs this every 15 s (SSE) or 30 s (pings)`,
    );
  }
  return lines.join('\n');
}
