/**
 * The broadcast bench server: `GET /bench/events` subscribes to the `bench` topic (SSE), `POST /bench/publish?rate=R&ms=D`
 * publishes R events a second for D ms (in 10 ms batches), each carrying its publication time. For resuming:
 * `POST /bench/fill?count=N` stores N events in the `history` topic (after a marker, whose id it answers), and
 * `GET /bench/history` with `Last-Event-ID` resumes from it. argv[2] is the backend (`memory`, or `redis` /
 * `redis-streams` with the URL in argv[3]).
 */
import { performance } from 'node:perf_hooks';
import {
  broadcast,
  GET,
  HeaderParam,
  Path,
  POST,
  Produces,
  QueryParam,
  ResponseStatus,
  RestApplication,
  resolveConfig,
  type Multi,
  type SseEvent,
} from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { publishAtRate, type BenchEvent } from './publish-at-rate';
import { followParent } from './server-control';

const topic = broadcast<BenchEvent>('bench', { replay: 0 });
const history = broadcast<BenchEvent>('history');

@Path('bench')
class BroadcastBenchResource {
  @GET
  @Path('events')
  @Produces('text/event-stream')
  events(): Multi<SseEvent> {
    return topic.subscribe();
  }

  @GET
  @Path('history')
  @Produces('text/event-stream')
  history(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    return history.subscribe({ lastEventId });
  }

  /** Stores a marker and then `count` events in `history`; answers the marker's id (resume after it to miss them all). */
  @POST
  @Path('fill')
  @Produces('application/json')
  async fill(@QueryParam('count') count: number): Promise<{ marker: string }> {
    const marker = await history.publish({ n: -1, t: 0 });
    const stored: Promise<string>[] = [];
    for (let n = 0; n < count; n++) stored.push(history.publish({ n, t: performance.timeOrigin + performance.now() }));
    await Promise.all(stored);
    return { marker };
  }

  @GET
  @Path('subscribers')
  @Produces('application/json')
  subscribers(): { subscribers: number } {
    return { subscribers: topic.subscribers };
  }

  @POST
  @Path('publish')
  @ResponseStatus(202)
  publish(@QueryParam('rate') rate: number, @QueryParam('ms') ms: number): void {
    publishAtRate(rate, ms, (event) => topic.publish(event));
  }
}

async function main(): Promise<void> {
  const [backend = 'memory', url] = process.argv.slice(2);
  const overrides = {
    'framework.broadcast.backend': backend,
    'framework.rest.sse.keep-alive': '0',
    // Every subscriber of the bench comes from this one address: the per-client stream cap would count them as one client.
    'framework.http.limits.max-streams-per-client': '0',
    ...(url ? { 'framework.broadcast.redis.url': url } : {}),
  };
  const app = RestApplication.build({ classes: [BroadcastBenchResource], config: resolveConfig({ overrides }) });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  process.stdout.write(`${READY_PREFIX}${server.port}\n`);
  followParent(() => void server.close());
}

void main();
