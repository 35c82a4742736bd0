/**
 * Client benchmark: 100,000 NDJSON items from the rxrest streaming bench server (a child process), consumed by
 * the REST client (`RestClient` over a contract class) and by a hand-written `fetch` + line splitter +
 * `JSON.parse`, in alternating rounds of the same run; the same for SSE and for a JSON array read item by item.
 */
import { lastValueFrom, reduce } from 'rxjs';
import { RestClient } from '../../lib/client';
import { GET, Path, Produces, QueryParam, type Multi } from '../../lib';
import { startChildServer } from './child-server';

const ITEMS = 100_000;
const ROUNDS = 7;

/** The bench server's contract, as a client application would declare it (the methods never run here). */
@Path('bench')
class StreamBenchContract {
  @GET
  @Path('ndjson')
  @Produces('application/x-ndjson')
  ndjson(@QueryParam('n') n: number, @QueryParam('source') source: string): Multi<{ i: number }> {
    throw new Error(`a contract: ${n} ${source}`);
  }

  @GET
  @Path('sse')
  @Produces('text/event-stream')
  sse(@QueryParam('n') n: number, @QueryParam('source') source: string): Multi<{ i: number }> {
    throw new Error(`a contract: ${n} ${source}`);
  }

  @GET
  @Path('json')
  @Produces('application/json', 'application/x-ndjson')
  json(@QueryParam('n') n: number, @QueryParam('source') source: string): Multi<{ i: number }> {
    throw new Error(`a contract: ${n} ${source}`);
  }
}

/** What a careful user writes by hand: read the body, split lines, parse each. Returns the sum of `i` (checked). */
async function handWritten(url: string): Promise<number> {
  const response = await fetch(url);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let sum = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const lines = (pending + decoder.decode(value, { stream: true })).split('\n');
    pending = lines.pop()!;
    for (const line of lines) if (line) sum += (JSON.parse(line) as { i: number }).i;
  }
  return sum;
}

async function timed(run: () => Promise<number>): Promise<number> {
  const started = process.hrtime.bigint();
  const sum = await run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (sum !== (ITEMS * (ITEMS - 1)) / 2) throw new Error(`wrong items: sum ${sum}`);
  return ITEMS / seconds;
}

const best = (values: readonly number[]): number => Math.max(...values);

/** Runs the benchmark and prints its lines; returns the rows (best items/s of the rounds, and the ratio). */
export async function runClientBench(): Promise<Record<string, number | string>[]> {
  const server = await startChildServer('stream-server', ['rxrest']);
  try {
    const baseUrl = `http://127.0.0.1:${server.port}`;
    const client = RestClient.create(StreamBenchContract, { baseUrl });
    const sum = (items: ReturnType<typeof client.ndjson>) =>
      lastValueFrom(items.pipe(reduce((total, item) => total + item.i, 0)));
    const rows: Record<string, number | string>[] = [];
    const runs: [string, () => Promise<number>, () => Promise<number>][] = [
      [
        'NDJSON',
        () => sum(client.ndjson(ITEMS, 'range')),
        () => handWritten(`${baseUrl}/bench/ndjson?n=${ITEMS}&source=range`),
      ],
      [
        'SSE',
        () => sum(client.sse(ITEMS, 'range')),
        () => handWritten(`${baseUrl}/bench/ndjson?n=${ITEMS}&source=range`),
      ],
      [
        'JSON array',
        () => sum(client.json(ITEMS, 'range')),
        () => handWritten(`${baseUrl}/bench/ndjson?n=${ITEMS}&source=range`),
      ],
    ];
    process.stdout.write(
      `${ITEMS.toLocaleString('en')} items from the rxrest bench server (a child process), best of ${ROUNDS} rounds, alternating; the baseline always reads NDJSON by hand\n`,
    );
    for (const [name, viaClient, byHand] of runs) {
      const viaClientRates: number[] = [];
      const byHandRates: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        if (round % 2 === 0) {
          viaClientRates.push(await timed(viaClient));
          byHandRates.push(await timed(byHand));
        } else {
          byHandRates.push(await timed(byHand));
          viaClientRates.push(await timed(viaClient));
        }
      }
      const ratio = best(viaClientRates) / best(byHandRates);
      process.stdout.write(
        `  ${name.padEnd(10)} RestClient ${Math.round(best(viaClientRates)).toLocaleString('en')} items/s, fetch + line splitter ${Math.round(best(byHandRates)).toLocaleString('en')} items/s: ${ratio.toFixed(2)}× (target ≥ 0.8× for NDJSON)\n`,
      );
      rows.push({
        format: name,
        clientItemsPerSecond: Math.round(best(viaClientRates)),
        handItemsPerSecond: Math.round(best(byHandRates)),
        ratio: Math.round(ratio * 100) / 100,
      });
    }
    return rows;
  } finally {
    await server.stop();
  }
}

if (require.main === module) void runClientBench();
