/**
 * The highest broadcast rate fully delivered to 1,000 SSE subscribers — every event within the window (3 s of
 * publishing, and as long again for the last to arrive) and p99 under 1 s — by rxrest's broadcast server and by a
 * hand loop writing the same frames (servers/broadcast-loop-server.ts), with the same subscribers in this process:
 * in memory on one instance, and through Redis Streams on two (500 subscribers each, events published on the
 * first). The search brackets the limit by steps of ×1.5 (upwards on one set of servers while every step passes),
 * then halves the bracket (geometrically) twice, each try on fresh servers since a failed step leaves a server
 * still draining: about 10 % resolution. A failure counts once it happened twice on fresh servers: the machine is
 * shared, and one slow moment is not the server's limit. The two searches go in lockstep, a try of one then a try of
 * the other, so that both see the same machine: run one after the other, minutes apart, they saw different loads and
 * their ratio swung with it. Each set of servers is warmed up (a second at the first rate) before it is measured.
 */
import { availableParallelism, loadavg } from 'node:os';
import { measureRates, note, subscribe, SUBSCRIBERS, waitForSubscribers, type Subscribers } from './broadcast-harness';
import { startChildServer, type ChildServer } from './child-server';

type Backend = 'memory' | 'redis-streams';
type Server = 'broadcast-loop-server' | 'broadcast-server';

const WINDOW_MS = 3000;
const START = 500;
const GROWTH = 1.5;
const LOWEST = 50;
const HIGHEST = 100_000;
const REFINEMENTS = 2;
const TARGET: Record<Backend, number> = { memory: 0.9, 'redis-streams': 0.8 };
const NAME: Record<Server, string> = { 'broadcast-loop-server': 'hand loop', 'broadcast-server': 'rxrest' };

interface Rig {
  readonly servers: readonly ChildServer[];
  readonly subscribers: Subscribers;
  close(): Promise<void>;
}

/** What one search tries: a server on a backend. */
interface Subject {
  readonly server: Server;
  readonly backend: Backend;
  readonly url: string | undefined;
}

async function openRig({ server, backend, url }: Subject): Promise<Rig> {
  const instances = backend === 'memory' ? 1 : 2;
  const args = url === undefined ? [backend] : [backend, url];
  const servers = await Promise.all(Array.from({ length: instances }, () => startChildServer(server, args)));
  const each = SUBSCRIBERS / instances;
  const subscribers = await subscribe(
    servers.map((child) => child.port),
    each,
  );
  for (const child of servers) await waitForSubscribers(child.port, each);
  await warmUp(servers[0]!, subscribers);
  return {
    servers,
    subscribers,
    close: async () => {
      subscribers.close();
      await Promise.all(servers.map((child) => child.stop()));
    },
  };
}

/** A second at the first rate, unmeasured: the servers' code is compiled for the work before it is timed. */
async function warmUp(publisher: ChildServer, subscribers: Subscribers): Promise<void> {
  const expected = START * SUBSCRIBERS;
  subscribers.reset(expected);
  await fetch(`http://127.0.0.1:${publisher.port}/bench/publish?rate=${START}&ms=1000`, { method: 'POST' });
  const deadline = Date.now() + 5000;
  while (subscribers.received() < expected && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

async function fullyDelivered(subject: Subject, rig: Rig, rate: number): Promise<boolean> {
  const label = `${NAME[subject.server]}, ${subject.backend}`;
  const [row] = await measureRates(
    label,
    rig.servers[0]!,
    rig.servers,
    rig.subscribers,
    SUBSCRIBERS,
    [rate],
    WINDOW_MS,
  );
  return Number(row!.deliveredPercent) >= 100 && Number(row!.p99Ms) < 1000;
}

/** Whether `rate` is fully delivered on fresh servers, in one try of two. */
async function freshlyDelivered(subject: Subject, rate: number): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const rig = await openRig(subject);
    try {
      if (await fullyDelivered(subject, rig, rate)) return true;
    } finally {
      await rig.close();
    }
  }
  return false;
}

/** One try done (a search yields after each, so that two searches can take turns). */
type Search = AsyncGenerator<void, number>;

/**
 * The rates around the limit: the highest that passed (0 if none) and the lowest that failed (Infinity if none);
 * yields after each try.
 */
async function* bracket(subject: Subject): AsyncGenerator<void, { passed: number; failed: number }> {
  let passed = 0;
  let failed = Infinity;
  const rig = await openRig(subject);
  try {
    for (let rate = START; rate <= HIGHEST && failed === Infinity; rate = Math.round(rate * GROWTH)) {
      if (await fullyDelivered(subject, rig, rate)) passed = rate;
      else failed = rate;
      yield;
    }
  } finally {
    await rig.close();
  }
  // A failure the machine caused: on upwards from it, on fresh servers.
  while (failed <= HIGHEST) {
    const delivered = await freshlyDelivered(subject, failed);
    yield;
    if (!delivered) break;
    [passed, failed] = [failed, Math.round(failed * GROWTH)];
  }
  // Not even the first rate: downwards until one passes.
  while (passed === 0 && failed > LOWEST) {
    const rate = Math.round(failed / GROWTH);
    if (await freshlyDelivered(subject, rate)) passed = rate;
    else failed = rate;
    yield;
  }
  return { passed, failed };
}

/** The highest rate `subject` fully delivers; yields after each try. */
async function* highestDelivered(subject: Subject): Search {
  let { passed, failed } = yield* bracket(subject);
  for (let i = 0; i < REFINEMENTS && passed > 0 && failed <= HIGHEST; i++) {
    const rate = Math.round(Math.sqrt(passed * failed) / 10) * 10;
    if (await freshlyDelivered(subject, rate)) passed = rate;
    else failed = rate;
    yield;
  }
  return passed;
}

/** Runs the searches a try at a time each, in turn, until all are done; their results in order. */
async function inTurn(searches: readonly Search[]): Promise<number[]> {
  const results: number[] = [];
  const running = new Set(searches.keys());
  while (running.size > 0)
    for (const index of [...running]) {
      const step = await searches[index]!.next();
      if (step.done) {
        results[index] = step.value;
        running.delete(index);
      }
    }
  return results;
}

/** Both servers' highest fully delivered rate on each backend (Redis Streams when `redisUrl` is given), and the ratio. */
export async function runBroadcastCeilings(redisUrl: string | undefined): Promise<Record<string, number | string>[]> {
  note(
    `\nHighest rate fully delivered to ${SUBSCRIBERS} subscribers (100 % within ${WINDOW_MS / 1000} s of publishing and as long again, p99 < 1 s), rxrest beside a hand loop writing the same frames:`,
  );
  const rows: Record<string, number | string>[] = [];
  for (const backend of redisUrl === undefined ? (['memory'] as const) : (['memory', 'redis-streams'] as const)) {
    const url = backend === 'memory' ? undefined : redisUrl;
    const [loop, rxrest] = (await inTurn([
      highestDelivered({ server: 'broadcast-loop-server', backend, url }),
      highestDelivered({ server: 'broadcast-server', backend, url }),
    ])) as [number, number];
    const ratio = rxrest / loop;
    // Both searches share the machine with whatever else runs: its load says how far the figures can be trusted.
    note(`  (load average over the last 5 minutes: ${loadavg()[1]!.toFixed(1)} on ${availableParallelism()} CPUs)`);
    note(
      `  ${backend}: hand loop ${loop.toLocaleString('en')} events/s, rxrest ${rxrest.toLocaleString('en')} events/s = ${ratio.toFixed(2)}× the loop (target ≥ ${TARGET[backend]}×)`,
    );
    rows.push({ ceiling: backend, loopEventsPerSecond: loop, rxrestEventsPerSecond: rxrest, ratio });
  }
  return rows;
}
