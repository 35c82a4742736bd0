/**
 * Memory per connection, read the same way for every server: the server runs with a fixed young generation and
 * `--expose-gc` (`MEASURED_NODE_FLAGS`), a full GC precedes each reading (see servers/server-control.ts), and the
 * figure is the least-squares slope of RSS against the number of connections over the readings of the second half
 * of them, where what the first connections bring once (pools, compiled code, grown tables) is done.
 */
import type { MemoryReading } from './child-server';

/** Node flags of a measured server: a young generation of 16 MB from start to end, and `gc()` for the readings. */
export const MEASURED_NODE_FLAGS = ['--expose-gc', '--min-semi-space-size=16', '--max-semi-space-size=16'] as const;

/** One reading: the connections open, and the server's memory after a full GC. */
export interface Reading {
  readonly connections: number;
  readonly memory: MemoryReading;
}

/** Bytes per connection, with the standard error of the fitted slope (how far from a straight line the points are). */
export interface Slope {
  readonly bytes: number;
  readonly standardError: number;
  /** The readings the line was fitted to. */
  readonly points: number;
}

/** The least-squares slope of `value` over the readings taken at half the connections or more. */
export function secondHalfSlope(readings: readonly Reading[], value: (memory: MemoryReading) => number): Slope {
  const last = Math.max(...readings.map((reading) => reading.connections));
  const used = readings.filter((reading) => reading.connections >= last / 2);
  const xs = used.map((reading) => reading.connections);
  const ys = used.map((reading) => value(reading.memory));
  const n = xs.length;
  if (n < 3) throw new Error(`a slope needs 3 readings in the second half, got ${n}`);
  const meanX = xs.reduce((sum, x) => sum + x, 0) / n;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - meanX) ** 2;
    sxy += (xs[i]! - meanX) * (ys[i]! - meanY);
  }
  const bytes = sxy / sxx;
  const residuals = ys.reduce((sum, y, i) => sum + (y - meanY - bytes * (xs[i]! - meanX)) ** 2, 0);
  return { bytes, standardError: Math.sqrt(residuals / (n - 2) / sxx), points: n };
}

/** `1.23 KB ±0.05`. */
export function formatSlope(slope: Slope): string {
  return `${(slope.bytes / 1024).toFixed(2)} KB ±${(slope.standardError / 1024).toFixed(2)}`;
}
