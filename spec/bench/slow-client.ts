/** Slow-client bench: a paused reader on an endless fast Observable, the server's RSS sampled from /proc per overflow policy. */
import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import { rssBytes, startChildServer, type ChildServer } from './child-server';
import { SLOW_BUDGET, SLOW_ITEM_CHARS, type SlowStreamStats } from './servers/slow-stream-server';

const POLICIES = ['fail', 'drop-oldest', 'drop-newest', 'latest'] as const;
const PAUSE_MS = 5_000;
const SAMPLE_MS = 250;
// Read up to this much after the pause (what the socket holds, then fresh items), to show the stream still flows or ended.
const READ_AFTER_BYTES = 16 * 1048576;
const READ_AFTER_MS = 2_000;
// A broken policy would eat the machine: stop holding the stream past this growth.
const RUNAWAY_BYTES = 512 * 1048576;

const MB = 1048576;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One policy's figures. */
export interface SlowClientRow {
  readonly policy: string;
  readonly rssStartMb: number;
  /** Largest RSS growth over the start in the first and in the second half of the pause: equal when bounded. */
  readonly growthFirstHalfMb: number;
  readonly growthSecondHalfMb: number;
  /** Growth of V8's heap (`heapTotal`) over the pause, part of the RSS growth. */
  readonly heapGrowthMb: number;
  /** What the server holds at the end of the pause after a full GC, over its start: the budget's bytes plus the live heap's growth. */
  readonly retainedGrowthMb: number;
  readonly itemsProduced: number;
  /** Live source subscriptions at the end of the pause, client still connected (`fail` has stopped it by then). */
  readonly activeWhilePaused: number;
  /** Bytes the client read after the pause, before it hung up (or the server ended the stream). */
  readonly bytesRead: number;
  /** The server ended the response itself (the `fail` policy aborts the connection on overflow). */
  readonly serverClosed: boolean;
  /** Live source subscriptions once the client was gone: 0 means the source was unsubscribed. */
  readonly activeAfter: number;
}

async function serverStats(port: number): Promise<SlowStreamStats> {
  const response = await fetch(`http://127.0.0.1:${port}/slow/stats`);
  return (await response.json()) as SlowStreamStats;
}

/** Opens the stream and pauses reading as soon as the headers are in. */
function openPaused(port: number, policy: string): Promise<{ request: ClientRequest; response: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path: `/slow/${policy}` }, (response) => {
      response.pause();
      resolve({ request, response });
    });
    request.once('error', reject);
  });
}

/** Samples the server's RSS every `SAMPLE_MS` for `PAUSE_MS` (or until a runaway); returns the largest growth per half. */
async function sampleWhilePaused(pid: number, start: number): Promise<[number, number]> {
  const halves: [number, number] = [0, 0];
  for (let elapsed = SAMPLE_MS; elapsed <= PAUSE_MS && Math.max(...halves) < RUNAWAY_BYTES; elapsed += SAMPLE_MS) {
    await sleep(SAMPLE_MS);
    const half = elapsed <= PAUSE_MS / 2 ? 0 : 1;
    halves[half] = Math.max(halves[half], rssBytes(pid) - start);
  }
  return halves;
}

/** Resumes reading until `READ_AFTER_BYTES`, `READ_AFTER_MS` or the end; counts bytes and whether the server ended it. */
function readALittle(response: IncomingMessage): Promise<{ bytes: number; serverClosed: boolean }> {
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (serverClosed: boolean): void => {
      clearTimeout(timer);
      response.removeAllListeners('data');
      resolve({ bytes, serverClosed });
    };
    const timer = setTimeout(() => finish(false), READ_AFTER_MS);
    response.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes >= READ_AFTER_BYTES) finish(false);
    });
    // An aborted response ends with 'close' (and 'aborted'/'error'), a complete one with 'end' first.
    response.once('close', () => finish(true));
    response.resume();
  });
}

/** Polls the stats until no source is alive, for up to a second; returns what is still alive. */
async function activeAfterDisconnect(port: number): Promise<number> {
  let active = (await serverStats(port)).active;
  for (let tries = 0; tries < 20 && active > 0; tries++) {
    await sleep(50);
    active = (await serverStats(port)).active;
  }
  return active;
}

async function holdSlowly(child: ChildServer, policy: string): Promise<SlowClientRow> {
  const before = await serverStats(child.port);
  const startRetained = (await (await fetch(`http://127.0.0.1:${child.port}/slow/retained`)).json()) as {
    heapUsed: number;
    external: number;
  };
  const start = rssBytes(child.pid);
  const { request, response } = await openPaused(child.port, policy);
  let serverClosed = false;
  response.once('close', () => (serverClosed = true));
  response.once('error', () => undefined);
  request.once('error', () => undefined);
  const [firstHalf, secondHalf] = await sampleWhilePaused(child.pid, start);
  const paused = await serverStats(child.port);
  const retained = (await (await fetch(`http://127.0.0.1:${child.port}/slow/retained`)).json()) as {
    heapUsed: number;
    external: number;
  };
  const closedWhilePaused = serverClosed;
  const read = closedWhilePaused ? { bytes: 0, serverClosed } : await readALittle(response);
  request.destroy();
  const activeAfter = await activeAfterDisconnect(child.port);
  const produced = (await serverStats(child.port)).produced - before.produced;
  const round = (bytes: number): number => Math.round((bytes / MB) * 10) / 10;
  return {
    policy,
    rssStartMb: round(start),
    growthFirstHalfMb: round(firstHalf),
    growthSecondHalfMb: round(secondHalf),
    heapGrowthMb: round(paused.heapTotal - before.heapTotal),
    retainedGrowthMb: round(retained.heapUsed + retained.external - startRetained.heapUsed - startRetained.external),
    itemsProduced: produced,
    activeWhilePaused: paused.active,
    bytesRead: read.bytes,
    serverClosed: read.serverClosed,
    activeAfter,
  };
}

function formatRow(row: SlowClientRow): string {
  const ended = row.serverClosed ? 'server ended the stream' : 'client hung up';
  const cancelled = row.activeAfter === 0 ? 'source unsubscribed' : `${row.activeAfter} source(s) STILL ALIVE`;
  const running = row.activeWhilePaused === 0 ? 'source stopped during the pause' : 'source running during the pause';
  return (
    `${row.policy.padEnd(12)} RSS ${row.rssStartMb} MB; growth ${row.growthFirstHalfMb} MB (first half), ${row.growthSecondHalfMb} MB (second half), heap +${row.heapGrowthMb} MB, retained after a full GC +${row.retainedGrowthMb} MB; ` +
    `${row.itemsProduced} items produced, ${running}; ${row.bytesRead} bytes read after, ${ended}; ${cancelled}`
  );
}

/** Runs one slow client per overflow policy against a fresh child server, prints a line each and returns the rows. */
export async function runSlowClientBench(): Promise<SlowClientRow[]> {
  process.stdout.write(
    `Slow client: paused ${PAUSE_MS / 1000} s on an endless NDJSON Observable (~${SLOW_ITEM_CHARS} B items), budget ${SLOW_BUDGET}; server RSS from /proc every ${SAMPLE_MS} ms\n`,
  );
  const rows: SlowClientRow[] = [];
  for (const policy of POLICIES) {
    // A fresh server per policy, so one policy's heap does not hide or inflate the next one's growth.
    const child = await startChildServer('slow-stream-server', [], undefined, ['--expose-gc']);
    try {
      const row = await holdSlowly(child, policy);
      rows.push(row);
      process.stdout.write(`${formatRow(row)}\n`);
    } finally {
      await child.stop();
    }
  }
  return rows;
}

if (require.main === module) void runSlowClientBench();
