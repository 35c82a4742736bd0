/**
 * Where a connection's memory goes (`npm run bench -- --only=capacity --heap`): on rxrest and on the baseline, a
 * heap snapshot with 100 idle connections open (what the first ones bring once is then there) and another after
 * 1,000 more, each connection having had a heartbeat; what the second holds more, per connection, by constructor
 * (heap-summary.ts): the top 15 by retained bytes, the top 15 by own bytes, and the top 15 closures by own bytes
 * with the file and line of their function (of the compiled JavaScript).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer } from './child-server';
import { HEARTBEAT_MS } from './capacity.bench';
import { benchTransports, startFleet, type Transport } from './capacity-fleet';
import { heapGrowth, summarizeHeap, type ConstructorSize } from './heap-summary';
import { MEASURED_NODE_FLAGS } from './memory-slope';

const WARM = 100;
const MEASURED = 1000;
const TOP = 15;

const note = (line: string): void => void process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function table(rows: readonly [string, ConstructorSize][], by: 'retained' | 'self', what = 'constructor'): string {
  const top = [...rows].sort((a, b) => b[1][by] - a[1][by]).slice(0, TOP);
  return [
    `| ${what} (top ${TOP} by ${by === 'self' ? 'own' : by} bytes) | count | own bytes | retained bytes |`,
    '|---|---:|---:|---:|',
    ...top.map(
      ([key, size]) =>
        `| ${key.replace(/\|/g, '\\|').slice(0, 110)} | ${size.count.toFixed(2)} | ${Math.round(size.self)} | ${Math.round(size.retained)} |`,
    ),
  ].join('\n');
}

async function profile(script: string, name: string, transport: Transport, dir: string): Promise<void> {
  const server = await startChildServer(script, [String(HEARTBEAT_MS)], undefined, MEASURED_NODE_FLAGS);
  const fleet = startFleet(transport, server.port, `/capacity/${transport}`);
  try {
    await fleet.open(WARM);
    await sleep(HEARTBEAT_MS + 100);
    const before = await server.memory();
    await server.snapshot(join(dir, 'before.heapsnapshot'));
    const opened = await fleet.open(MEASURED);
    await sleep(HEARTBEAT_MS + 100);
    const after = await server.memory();
    await server.snapshot(join(dir, 'after.heapsnapshot'));
    const rows = heapGrowth(
      summarizeHeap(join(dir, 'before.heapsnapshot')),
      summarizeHeap(join(dir, 'after.heapsnapshot')),
      MEASURED,
    );
    const own = rows.reduce((sum, [, size]) => sum + size.self, 0);
    note(
      `\n${name}, ${transport === 'sse' ? 'idle SSE streams' : 'idle WebSockets'}: ${opened.open - WARM} more open; per connection ` +
        `${(own / 1024).toFixed(2)} KB in the heap snapshots, heapUsed ${((after.heapUsed - before.heapUsed) / MEASURED / 1024).toFixed(2)} KB ` +
        '(RSS is not read here: writing a snapshot grows it)',
    );
    note(table(rows, 'retained'));
    note(table(rows, 'self'));
    note(
      table(
        rows.filter(([, size]) => size.type === 'closure' && size.self > 0),
        'self',
        'closure, where written',
      ),
    );
  } finally {
    await fleet.close();
    await server.stop();
  }
}

export async function runCapacityHeap(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rxrest-heap-'));
  try {
    for (const transport of benchTransports()) {
      await profile('capacity-baseline', transport === 'sse' ? 'raw node:http' : 'bare ws', transport, dir);
      await profile('capacity-server', 'rxrest', transport, dir);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
