/** Opens connections to a measured server in equal steps, reading its memory after each (see memory-slope.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import type { ChildServer } from './child-server';
import type { Fleet } from './capacity-fleet';
import type { Reading } from './memory-slope';

/** What opening them took, and the readings: one before the first connection, one after each step. */
export interface Opened {
  readonly readings: readonly Reading[];
  /** Time spent opening them (the readings and the settling waits left out). */
  readonly openMs: number;
  readonly open: number;
  readonly failed: number;
  readonly error?: string;
}

/**
 * Opens `total` connections through `fleet` in `steps` equal steps; after each, waits `settleMs` (a heartbeat
 * interval, so that every connection counted has had its first one) and reads `server`'s memory. A reading counts
 * the connections the clients still have open, so one the server cut (a ping unanswered on a loaded machine)
 * does not count as held.
 */
export async function openMeasured(
  server: ChildServer,
  fleet: Fleet,
  total: number,
  steps: number,
  settleMs = 0,
): Promise<Opened> {
  const readings: Reading[] = [{ connections: 0, memory: await server.memory() }];
  let openMs = 0;
  let last: { open: number; failed: number; error?: string } = { open: 0, failed: 0 };
  for (let step = 1; step <= steps; step++) {
    const opened = await fleet.open(Math.round((total * step) / steps) - Math.round((total * (step - 1)) / steps));
    openMs += opened.ms;
    last = opened;
    if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
    const memory = await server.memory();
    readings.push({ connections: (await fleet.status(Infinity)).open, memory });
  }
  return { readings, openMs, ...last };
}

/** The soft limit of open files of a process, from /proc (what `ulimit -n` says in its shell). */
export function openFileLimit(pid: number): { soft: number; hard: number } {
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  const read = (value: string | undefined) => (value === undefined || value === 'unlimited' ? Infinity : Number(value));
  return { soft: read(line?.[1]), hard: read(line?.[2]) };
}

/** The files (sockets included) a process has open. */
export function openFiles(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}
