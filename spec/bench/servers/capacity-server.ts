/**
 * The capacity bench's rxrest server: `GET /capacity/sse` is an SSE stream of the `capacity` topic (keep-alive
 * comments every argv[2] ms), `/capacity/ws` a WebSocket that gets the same topic's events (pinged every argv[2] ms),
 * `POST /capacity/publish` publishes one event to both, carrying its publication time. The stream caps are lifted.
 */
import { performance } from 'node:perf_hooks';
import type { Observable } from 'rxjs';
import {
  broadcast,
  GET,
  OnOpen,
  Path,
  POST,
  Produces,
  ResponseStatus,
  RestApplication,
  resolveConfig,
  WebSocketEndpoint,
  type Multi,
  type SseEvent,
} from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

/** What the one event carries: its publication time (ms since the epoch, sub-millisecond). */
export interface CapacityEvent {
  readonly t: number;
}

const topic = broadcast<CapacityEvent>('capacity', { replay: 0 });

@Path('capacity')
class CapacityResource {
  @GET
  @Path('sse')
  @Produces('text/event-stream')
  sse(): Multi<SseEvent> {
    return topic.subscribe();
  }

  @POST
  @Path('publish')
  @ResponseStatus(202)
  async publish(): Promise<void> {
    await topic.publish({ t: performance.timeOrigin + performance.now() });
  }
}

@WebSocketEndpoint('/capacity/ws')
class CapacitySocket {
  @OnOpen
  open(): Observable<SseEvent> {
    return topic.subscribe();
  }
}

async function main(): Promise<void> {
  const heartbeat = process.argv[2] ?? '15000';
  const overrides = {
    'framework.rest.sse.keep-alive': heartbeat,
    'framework.websocket.ping-interval': heartbeat,
    // The caps on open streams (10,000 a process, 1,000 a client by default) are lifted: this server is to hold as
    // many as the open-file limit allows, from four client addresses.
    'framework.http.limits.max-streams': '0',
    'framework.http.limits.max-streams-per-client': '0',
  };
  const app = RestApplication.build({
    classes: [CapacityResource, CapacitySocket],
    config: resolveConfig({ overrides }),
  });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  process.stdout.write(`${READY_PREFIX}${server.port}\n`);
  followParent(() => void server.close());
}

void main();
