// Redis restarting in the middle of a resume, over a real socket and a real redis-server (append-only): a client
// paging through 20,000 missed events of 1 KB (20 MB: far more than the stream's budget and the sockets' buffers
// hold, about 4 MB, so the history cannot all be on its way when Redis dies) when Redis goes away has its stream ended cleanly (`event: error`, so an
// EventSource reconnects), and once Redis is back it resumes from its last id with nothing lost or doubled. The
// failure is an outage the backplane already logs once: each stream it ends is a WARN line, not an ERROR with a
// stack trace per client (a thousand resuming clients wrote a thousand stacks).
import { request } from 'node:http';
import {
  broadcast,
  GET,
  HeaderParam,
  Path,
  Produces,
  RestApplication,
  StreamBuffer,
  type Multi,
  type RestApp,
  type RunningServer,
  type SseEvent,
} from '../../lib';
import { logging } from '../../lib/logging/logger';
import type { LogRecord } from '../../lib/logging/log-record';
import { redisServer } from '../support/redis-server';
import { openSse } from '../support/sse-client';
import { until, within } from '../support/until';

@Path('outage')
class OutageResource {
  @GET
  @Produces('text/event-stream')
  @StreamBuffer({ size: '256K', overflow: 'fail' })
  stream(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    return broadcast<{ n: number; pad: string }>('outage').subscribe({ lastEventId });
  }
}

const redis = redisServer({ appendOnly: true });
let app: RestApp;
let server: RunningServer;
const ready = () =>
  until(async () => ((await fetch(`${server.url}/q/health/ready`)).ok ? true : undefined), 'Redis', 20_000);

beforeAll(async () => {
  await redis.start();
  app = RestApplication.build({
    classes: [OutageResource],
    overrides: {
      'framework.broadcast.backend': 'redis-streams',
      'framework.broadcast.redis.url': redis.url,
      'framework.broadcast.retention.max-events': 50_000,
      'framework.broadcast.retention.max-bytes': '64M',
      'framework.rest.sse.keep-alive': '0',
    },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  await ready();
}, 60_000);
afterAll(() => server.close());

interface Read {
  readonly ns: number[];
  lastId: string;
  readonly names: string[];
}

/**
 * Reads the stream after `lastEventId` slowly (5 ms between chunks) until it ends. Once it has more than `outageAt`
 * events it stops reading until `outage()` is over: the server, held back by its client, is then between two page
 * reads, however slow the machine (a kill left to a poll of the test could come after the whole history was read).
 */
function readSlowly(lastEventId: string, read: Read, outageAt: number, outage: () => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/outage`, { headers: { 'last-event-id': lastEventId } }, (res) => {
      let pending = '';
      let outageDone: Promise<void> | undefined;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const blocks = (pending + chunk).split('\n\n');
        pending = blocks.pop()!;
        for (const block of blocks) {
          const id = /^id:(.*)$/m.exec(block)?.[1];
          const name = /^event:(.*)$/m.exec(block)?.[1];
          if (name) read.names.push(name);
          if (id === undefined) continue;
          read.lastId = id;
          read.ns.push((JSON.parse(/^data:(.*)$/m.exec(block)![1]!) as { n: number }).n);
        }
        res.pause();
        if (read.ns.length > outageAt && !outageDone) {
          outageDone = outage();
          outageDone.then(() => res.resume(), reject);
        } else setTimeout(() => res.resume(), 5);
      });
      res.on('close', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a resume on redis-streams while Redis restarts', () => {
  it('ends the stream cleanly, logs a warning, and resumes from the last id with nothing lost or doubled', async () => {
    const pad = 'x'.repeat(1000);
    const first = await app.broadcast<{ n: number; pad: string }>('outage').publish({ n: -1, pad });
    for (let n = 0; n < 20_000; n += 500)
      await within(
        Promise.all(
          Array.from({ length: 500 }, (_, k) =>
            app.broadcast<{ n: number; pad: string }>('outage').publish({ n: n + k, pad }),
          ),
        ),
        `publishing events ${n} to ${n + 499}`,
      );
    const records: LogRecord[] = [];
    const previous = logging.setSink((record) => records.push(record));
    try {
      const read: Read = { ns: [], lastId: first, names: [] };
      const outage = () => within(redis.kill(), 'redis-server to exit');
      await within(readSlowly(first, read, 2000, outage), 'the stream to end once Redis was gone', 30_000);
      expect(read.ns.length).toBeLessThan(20_000);
      expect(read.names).toEqual(['error']);
      const failures = records.filter((record) => /failed after its response was committed/.test(record.message));
      expect(failures.filter((record) => record.level === 'ERROR').map((record) => record.message)).toEqual([]);
      expect(failures.some((record) => record.level === 'WARN' && /cannot be read now/.test(record.message))).toBe(
        true,
      );
      await within(redis.start(), 'redis-server to start again');
      await ready();
      const rest = await openSse(`${server.url}/outage`, { 'last-event-id': read.lastId });
      await within(
        rest.until((events) => events.some((event) => event.data.includes('"n":19999'))),
        'the resumed stream to reach event 19999 or end',
      );
      rest.cut();
      const ns = [...read.ns, ...rest.events.map((event) => (JSON.parse(event.data) as { n: number }).n)];
      expect(ns).toEqual(Array.from({ length: 20_000 }, (_, k) => k));
    } finally {
      logging.setSink(previous);
    }
  }, 60_000);
});
