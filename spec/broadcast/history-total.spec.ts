// The history one application keeps in its process is bounded across all its topics, over a real socket: with
// framework.broadcast.retention.max-total-bytes smaller than what many topics keep each, the oldest events of the
// application (whatever their topic) are dropped first, so max-topics × retention.max-bytes never becomes what a
// process holds; a client that resumes from an event dropped so is told (`event: reset`), as for any trimmed one.
import {
  broadcast,
  GET,
  HeaderParam,
  Path,
  Produces,
  RestApplication,
  RestPath,
  type Multi,
  type RestApp,
  type RunningServer,
  type SseEvent,
} from '../../lib';
import { openSse } from '../support/sse-client';

class Line {
  text = '';
}

const room = (name: string) => broadcast<Line>(`total/${name}`);

@Path('total/{name}')
class TotalResource {
  @GET
  @Produces('text/event-stream')
  stream(@RestPath() name: string, @HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    return room(name).subscribe({ lastEventId });
  }
}

/** An event whose JSON (`{"text":"..."}`) is exactly 10,000 bytes. */
const line = (n: number): Line => ({ text: `${n} `.padEnd(10_000 - 11, 'z') });

let app: RestApp;
let server: RunningServer;
beforeAll(async () => {
  app = RestApplication.build({
    classes: [TotalResource],
    overrides: {
      'framework.rest.sse.keep-alive': '0',
      'framework.broadcast.retention.max-bytes': '1M',
      // 262,144 bytes: 26 events of 10,000.
      'framework.broadcast.retention.max-total-bytes': '256K',
    },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

describe('framework.broadcast.retention.max-total-bytes', () => {
  it('drops the oldest events of the application across its topics, each topic within its own max-bytes', async () => {
    // 8 rooms of 8 events each, one room after the other: 640,000 bytes published, 26 events' worth kept.
    const firsts: string[] = [];
    for (let r = 0; r < 8; r++)
      for (let n = 0; n < 8; n++) {
        const id = await app.broadcast<Line>(`total/r${r}`).publish(line(r * 8 + n));
        if (n === 0) firsts.push(id);
      }
    const seen: string[][] = [];
    for (let r = 0; r < 8; r++) {
      const resumed = await openSse(`${server.url}/total/r${r}`, { 'last-event-id': firsts[r]! });
      const expected = r < 4 ? 1 : r === 4 ? 3 : 7;
      await resumed.until((events) => events.length >= expected);
      await new Promise((resolve) => setTimeout(resolve, 50));
      resumed.cut();
      seen.push(resumed.events.map((event) => event.event ?? String(JSON.parse(event.data).text).split(' ')[0]!));
    }
    const numbers = (from: number, to: number) => Array.from({ length: to - from }, (_, n) => String(from + n));
    expect(seen).toEqual([
      ['reset'],
      ['reset'],
      ['reset'],
      ['reset'],
      ['reset', '38', '39'],
      numbers(41, 48),
      numbers(49, 56),
      numbers(57, 64),
    ]);
  });
});
