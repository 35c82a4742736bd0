// What a stranger can make a topic hold, on memory and on Redis Streams (a real redis-server), over real sockets: a
// publish past framework.broadcast.max-event-size is refused (413 problem) and never sent or kept; a flood of events
// leaves at most retention.max-bytes of history (and max-events, and nothing older than max-age); a Last-Event-ID of
// another form is a 400 problem, not "everything held"; and a history larger than the stream's budget is sent whole,
// page by page at the client's pace, never a 500 before the first byte.
import { Redis } from 'ioredis';
import {
  broadcast,
  Consumes,
  GET,
  HeaderParam,
  Path,
  POST,
  Produces,
  ResponseStatus,
  RestApplication,
  StreamBuffer,
  type Multi,
  type RestApp,
  type RunningServer,
  type SseEvent,
} from '../../lib';
import { redisServer } from '../support/redis-server';
import { openSse } from '../support/sse-client';
import { until } from '../support/until';

class Note {
  text = '';
}

const notes = broadcast<Note>('notes');

@Path('notes')
class NoteResource {
  @POST
  @Consumes('application/json')
  @ResponseStatus(202)
  async post(note: Note): Promise<void> {
    await notes.publish({ text: note.text });
  }

  /** A small budget that fails on overflow: a history larger than 64K must come in pages. */
  @GET
  @Produces('text/event-stream')
  @StreamBuffer({ size: '64K', overflow: 'fail' })
  stream(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    return notes.subscribe({ lastEventId });
  }
}

const redis = redisServer();
beforeAll(() => redis.start());

const settings = {
  'framework.rest.sse.keep-alive': '0',
  'framework.broadcast.max-event-size': '16K',
  'framework.broadcast.retention.max-bytes': '1M',
  'framework.broadcast.retention.max-events': 5000,
  // Bounds at once: no live window keeping the flood's events for readers behind (the burst spec covers that).
  'framework.broadcast.redis.live-window': '0',
};

/** The bytes of data a topic's Redis stream holds, its length, and its oldest id. */
async function stream(client: Redis, topic: string): Promise<{ bytes: number; length: number; oldest?: string }> {
  const entries = (await client.call('XRANGE', `rxrest:stream:${topic}`, '-', '+')) as [string, string[]][];
  const bytes = entries.reduce((sum, [, fields]) => sum + Buffer.byteLength(fields[fields.indexOf('d') + 1]!), 0);
  return { bytes, length: entries.length, oldest: entries[0]?.[0] };
}

describe.each(['memory', 'redis-streams'] as const)('a topic on %s', (backend) => {
  let app: RestApp;
  let server: RunningServer;
  const post = (text: string) =>
    fetch(`${server.url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
  beforeAll(async () => {
    app = RestApplication.build({
      classes: [NoteResource],
      overrides: { ...settings, 'framework.broadcast.backend': backend, 'framework.broadcast.redis.url': redis.url },
    });
    server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    if (backend === 'redis-streams')
      await until(async () => ((await fetch(`${server.url}/q/health/ready`)).ok ? true : undefined), 'Redis');
  });
  afterAll(() => server.close());

  it('refuses an event past max-event-size with a 413 problem, sending and keeping nothing', async () => {
    const reader = await openSse(`${server.url}/notes`);
    const refused = await post('x'.repeat(20_000));
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { code: string; detail: string }).code).toBe('RXREST_BROADCAST_EVENT_TOO_LARGE');
    await expect(notes.publish({ text: 'y'.repeat(20_000) })).rejects.toThrow(
      "broadcast('notes'): an event of 20011 bytes passes framework.broadcast.max-event-size (16K)",
    );
    expect((await post('small')).status).toBe(202);
    await reader.until((events) => events.length >= 1);
    expect(reader.events.map((event) => JSON.parse(event.data).text)).toEqual(['small']);
    reader.cut();
  });

  it('keeps at most max-bytes of history after a flood of large events, and sends it whole to a client that resumes', async () => {
    const first = await notes.publish({ text: 'first' });
    const padding = 'z'.repeat(15_000);
    for (let n = 0; n < 400; n++) expect((await post(`${n} ${padding}`)).status).toBe(202);
    // 400 events of 15 KB (6 MB) went through; what is kept fits 1M (on Redis, at least the last 100 events).
    const resumed = await openSse(`${server.url}/notes`, { 'last-event-id': first });
    expect(resumed.status).toBe(200);
    await resumed.until((events) => events.some((event) => event.data.startsWith('{"text":"399 ')));
    expect(resumed.events[0]!.event).toBe('reset');
    const kept = resumed.events.slice(1);
    expect(kept.some((event) => event.event !== undefined)).toBe(false);
    const bytes = kept.reduce((sum, event) => sum + Buffer.byteLength(event.data), 0);
    const floor = backend === 'redis-streams' ? 100 : 0;
    expect(bytes).toBeLessThanOrEqual(Math.max(1024 * 1024, floor * 15_020));
    expect(kept.length).toBeGreaterThanOrEqual(Math.max(floor, Math.floor((1024 * 1024) / 15_020)));
    // Every event kept is there once, in order, up to the last one.
    const numbers = kept.map((event) => Number(JSON.parse(event.data).text.split(' ')[0]));
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, n) => 400 - numbers.length + n));
    resumed.cut();
    if (backend === 'redis-streams') {
      const client = new Redis(redis.url);
      const held = await stream(client, 'notes');
      expect(held.length).toBe(kept.length);
      expect(held.bytes).toBe(bytes);
      expect(Number(await client.get('rxrest:bytes:notes'))).toBe(held.bytes);
      client.disconnect();
    }
  }, 60_000);

  it('answers a Last-Event-ID of another form with a 400 problem, before any event', async () => {
    for (const id of ['abc', '$', '+', '-', '0', '1-2-3', '1-0x', '1']) {
      const answer = await fetch(`${server.url}/notes`, { headers: { 'last-event-id': id } });
      expect([id, answer.status]).toEqual([id, 400]);
      expect(((await answer.json()) as { code: string }).code).toBe('RXREST_MALFORMED_LAST_EVENT_ID');
    }
  });

  it('sends a history many times its stream budget whole, page by page, to a client that resumes', async () => {
    const first = await notes.publish({ text: 'start' });
    const texts = Array.from({ length: 1500 }, (_, n) => `${n} ${'p'.repeat(500)}`);
    for (const text of texts) await notes.publish({ text });
    // About 770 KB of history for a stream whose budget is 64K, under `fail`.
    const resumed = await openSse(`${server.url}/notes`, { 'last-event-id': first });
    expect(resumed.status).toBe(200);
    await resumed.until((events) => events.length >= texts.length || events.some((event) => event.event === 'error'));
    expect(resumed.events.filter((event) => event.event !== undefined)).toEqual([]);
    expect(resumed.events.map((event) => JSON.parse(event.data).text)).toEqual(texts);
    // Then live, with no gap or duplicate at the seam.
    const live = await notes.publish({ text: 'live' });
    await resumed.until((events) => events.length > texts.length);
    expect(resumed.events.at(-1)).toMatchObject({ id: live, data: JSON.stringify({ text: 'live' }) });
    resumed.cut();
  }, 60_000);
});

describe('retention through configuration on redis-streams', () => {
  it('trims to exactly max-events, and drops what is older than max-age at the next publish', async () => {
    const app = RestApplication.build({
      classes: [],
      overrides: {
        'framework.broadcast.backend': 'redis-streams',
        'framework.broadcast.redis.url': redis.url,
        'framework.broadcast.retention.max-events': 150,
        'framework.broadcast.retention.max-age': '1s',
        'framework.broadcast.redis.live-window': '0',
      },
    });
    const client = new Redis(redis.url);
    try {
      await until(
        async () => ((await app.fetch(new Request('http://localhost/q/health/ready'))).ok ? true : undefined),
        'Redis',
      );
      const topic = app.broadcast<number>('trimmed');
      const ids: string[] = [];
      for (let n = 0; n < 400; n++) ids.push(await topic.publish(n));
      const held = await stream(client, 'trimmed');
      expect(held.length).toBe(150);
      expect(held.oldest).toBe(ids[250]);
      // A second later every one of them is past max-age: the next publish leaves only itself.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const last = await topic.publish(400);
      expect(await stream(client, 'trimmed')).toEqual({ bytes: 3, length: 1, oldest: last });
      // And the stream itself expires max-age after its last publish.
      expect(Number(await client.pttl('rxrest:stream:trimmed'))).toBeLessThanOrEqual(1000);
    } finally {
      client.disconnect();
      await app.close();
    }
  });
});
