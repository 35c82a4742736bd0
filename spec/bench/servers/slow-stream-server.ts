/** The slow-client bench server: an endless, fast Observable streamed as NDJSON, one endpoint per overflow policy. */
import { Observable } from 'rxjs';
import { GET, multi, Path, Produces, RestApplication, resolveConfig, StreamBuffer, type Multi } from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

/** The byte budget of each stream (`@StreamBuffer` size below): the default one. */
export const SLOW_BUDGET = '64M';
/** Characters of each item: the JSON string written per NDJSON line is this long plus quotes. */
export const SLOW_ITEM_CHARS = 1024;
// Items emitted per event-loop turn: far faster than any client reads, while other requests still get answered.
const BURST = 256;
// A safety net: a source nobody unsubscribes from still ends, so the child can never run away.
const MAX_SOURCE_MS = 60_000;

const stats = { active: 0, produced: 0 };

/** What `GET /slow/stats` answers. */
export interface SlowStreamStats {
  readonly active: number;
  readonly produced: number;
  readonly heapTotal: number;
}

/** An endless source of fresh ~1 KB strings, `BURST` per turn, counted in `stats` (items and live subscriptions). */
function fastSource(): Observable<string> {
  return new Observable<string>((subscriber) => {
    stats.active++;
    const deadline = Date.now() + MAX_SOURCE_MS;
    let timer: NodeJS.Immediate | undefined;
    const burst = (): void => {
      for (let n = 0; n < BURST && !subscriber.closed; n++) {
        stats.produced++;
        subscriber.next(String(stats.produced).padEnd(SLOW_ITEM_CHARS, 'x'));
      }
      if (subscriber.closed) return;
      if (Date.now() > deadline) return subscriber.complete();
      timer = setImmediate(burst);
    };
    timer = setImmediate(burst);
    return () => {
      stats.active--;
      if (timer !== undefined) clearImmediate(timer);
    };
  });
}

@Path('slow')
export class SlowStreamResource {
  @GET
  @Path('fail')
  @Produces('application/x-ndjson')
  @StreamBuffer({ size: SLOW_BUDGET, overflow: 'fail' })
  fail(): Multi<string> {
    return multi(fastSource());
  }

  @GET
  @Path('drop-oldest')
  @Produces('application/x-ndjson')
  @StreamBuffer({ size: SLOW_BUDGET, overflow: 'drop-oldest' })
  dropOldest(): Multi<string> {
    return multi(fastSource());
  }

  @GET
  @Path('drop-newest')
  @Produces('application/x-ndjson')
  @StreamBuffer({ size: SLOW_BUDGET, overflow: 'drop-newest' })
  dropNewest(): Multi<string> {
    return multi(fastSource());
  }

  @GET
  @Path('latest')
  @Produces('application/x-ndjson')
  @StreamBuffer({ size: SLOW_BUDGET, overflow: 'latest' })
  latest(): Multi<string> {
    return multi(fastSource());
  }

  /** Live source subscriptions, items produced since start and the V8 heap size: cancellation, source speed, where memory went. */
  @GET
  @Path('stats')
  @Produces('application/json')
  stats(): SlowStreamStats {
    return { ...stats, heapTotal: process.memoryUsage().heapTotal };
  }

  /**
   * A full garbage collection (the child runs with --expose-gc), then the memory still held: what the
   * stream retains, without the garbage V8 lets pile up between its collections.
   */
  @GET
  @Path('retained')
  @Produces('application/json')
  retained(): { readonly heapUsed: number; readonly external: number } {
    (globalThis as { gc?: () => void }).gc?.();
    const { heapUsed, external } = process.memoryUsage();
    return { heapUsed, external };
  }
}

async function main(): Promise<void> {
  const app = RestApplication.build({ classes: [SlowStreamResource], config: resolveConfig({}) });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  process.stdout.write(`${READY_PREFIX}${server.port}\n`);
  followParent(() => void server.close());
}

if (require.main === module) void main();
