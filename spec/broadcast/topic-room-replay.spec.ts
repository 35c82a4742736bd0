// A topic whose history is being sent to a client that resumes is read, over a real socket: past
// framework.broadcast.max-topics, the topic that gives way is another one nobody reads, never it, however old its
// newest event. (The topics that may give way are kept in order as they change; one being replayed page by page to a
// slow client leaves that order while it is, or a new topic would pick it, find it read, and be refused.)
import { request, type IncomingMessage } from 'node:http';
import {
  broadcast,
  GET,
  HeaderParam,
  Path,
  Produces,
  RestApplication,
  RestPath,
  StreamBuffer,
  type Multi,
  type RestApp,
  type RunningServer,
  type SseEvent,
} from '../../lib';
import { openSse } from '../support/sse-client';
import { within } from '../support/until';

@Path('rooms/{name}')
class RoomResource {
  @GET
  @Produces('text/event-stream')
  @StreamBuffer({ size: '64K', overflow: 'fail' })
  stream(@RestPath() name: string, @HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    return broadcast<{ text: string }>(`rooms/${name}`).subscribe({ lastEventId });
  }
}

let app: RestApp;
let server: RunningServer;
beforeAll(async () => {
  app = RestApplication.build({
    classes: [RoomResource],
    overrides: { 'framework.rest.sse.keep-alive': '0', 'framework.broadcast.max-topics': 2 },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

/** Opens the room's stream after `lastEventId` and never reads it past its head (a client gone quiet). */
function stalled(name: string, lastEventId: string): Promise<IncomingMessage> {
  return within(
    new Promise((resolve, reject) => {
      const req = request(`${server.url}/rooms/${name}`, { headers: { 'last-event-id': lastEventId } }, (res) => {
        res.pause();
        resolve(res);
      });
      req.once('error', reject);
      req.end();
    }),
    `the head of the room ${name}`,
  );
}

describe('a topic being replayed to a slow client, past framework.broadcast.max-topics', () => {
  it('is not the one that gives way: another topic nobody reads is, and the new topic is held', async () => {
    // The oldest topic: 4 MB of history, far more than the stream's 64K budget and the sockets' buffers.
    const text = 'x'.repeat(20_000);
    const first = await app.broadcast<{ text: string }>('rooms/old').publish({ text: 'first' });
    for (let n = 0; n < 200; n++) await app.broadcast<{ text: string }>('rooms/old').publish({ text });
    const newer = await app.broadcast<{ text: string }>('rooms/newer').publish({ text: 'newer' });
    const slow = await stalled('old', first);
    expect(slow.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A third topic: the one nobody reads (newer) gives way, not the one being replayed.
    await expect(app.broadcast<{ text: string }>('rooms/third').publish({ text: 'third' })).resolves.toMatch(/-/);
    const resumed = await openSse(`${server.url}/rooms/newer`, { 'last-event-id': newer });
    await resumed.until((events) => events.length >= 1);
    resumed.cut();
    expect(resumed.events[0]).toEqual({ event: 'reset', data: 'none' });
    slow.destroy();
  });
});
