// Broadcast topics belong to their application: two applications in one process, serving the same resource class
// (which holds its topics at module level) on real sockets, never see each other's events, ids or subscribers. A
// topic with no subscriber and no history is let go at once, and the topics one process holds are bounded by
// framework.broadcast.max-topics: a topic that only keeps history gives way to a new one, and past max-topics read at
// once a new one is refused with a 503 problem; on Redis Streams a room nobody reads leaves no key behind.
import { firstValueFrom, take, toArray } from 'rxjs';
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
  RestPath,
  type Multi,
  type RestApp,
  type RunningServer,
  type SseEvent,
} from '../../lib';
import { Redis } from 'ioredis';
import { redisServer } from '../support/redis-server';
import { openSse, type SseConnection } from '../support/sse-client';
import { until } from '../support/until';

class Message {
  text = '';
}

const room = (name: string) => broadcast<Message>(`room/${name}`);

@Path('rooms/{name}')
class RoomResource {
  /** Publishes after an await: the application a request belongs to is still known there. */
  @POST
  @Consumes('application/json')
  @ResponseStatus(202)
  async post(@RestPath() name: string, message: Message): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    await room(name).publish({ text: message.text });
  }

  @GET
  @Produces('text/event-stream')
  stream(@RestPath() name: string, @HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    return room(name).subscribe({ lastEventId });
  }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function post(server: RunningServer, name: string, text: string): Promise<Response> {
  return fetch(`${server.url}/rooms/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
}

const texts = (connection: SseConnection) => connection.events.map((event) => JSON.parse(event.data).text as string);

describe('broadcast topics of two applications in one process', () => {
  const apps: RestApp[] = [];
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    for (let n = 0; n < 2; n++) {
      const app = RestApplication.build({
        classes: [RoomResource],
        overrides: { 'framework.rest.sse.keep-alive': '0' },
      });
      apps.push(app);
      servers.push(await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false }));
    }
  });
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('never meet: an event published through one reaches its own subscribers only', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const onA = await openSse(`${a.url}/rooms/lobby`);
    const onB = await openSse(`${b.url}/rooms/lobby`);
    expect([onA.status, onB.status]).toEqual([200, 200]);
    expect((await post(a, 'lobby', 'to a')).status).toBe(202);
    expect((await post(b, 'lobby', 'to b')).status).toBe(202);
    await onA.until((events) => events.length >= 1);
    await onB.until((events) => events.length >= 1);
    await settle(100);
    expect(texts(onA)).toEqual(['to a']);
    expect(texts(onB)).toEqual(['to b']);
    // Each application counts its own subscribers, and keeps its own history.
    expect(apps.map((app) => app.broadcast('room/lobby').subscribers)).toEqual([1, 1]);
    const replayed = await firstValueFrom(
      apps[1]!.broadcast<Message>('room/lobby').subscribe({ lastEventId: '1-0' }).pipe(take(2), toArray()),
    );
    expect(replayed.map((event) => event.event ?? (event.data as Message).text)).toEqual(['reset', 'to b']);
    onA.cut();
    onB.cut();
  });

  it('refuses a module-level topic used outside any request while both run, and takes it from the application named', async () => {
    await expect(room('lobby').publish({ text: 'from a timer' })).rejects.toThrow(
      "broadcast('room/lobby'): 2 applications are running in this process and this call comes from none of their requests",
    );
    const onA = await openSse(`${servers[0]!.url}/rooms/timer`);
    await apps[0]!.broadcast<Message>('room/timer').publish({ text: 'from a timer' });
    await onA.until((events) => events.length >= 1);
    expect(texts(onA)).toEqual(['from a timer']);
    onA.cut();
  });
});

describe('topics held by one application', () => {
  let app: RestApp;
  let server: RunningServer;
  beforeAll(async () => {
    app = RestApplication.build({
      classes: [RoomResource],
      overrides: {
        'framework.rest.sse.keep-alive': '0',
        'framework.broadcast.max-topics': 5,
        'framework.broadcast.retention.max-age': '1s',
      },
    });
    server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  });
  afterAll(() => server.close());

  it('are let go once they hold nothing, and refused with a 503 problem past max-topics read at once', async () => {
    // An event kept for resuming clients in a room nobody reads, then five rooms with a subscriber each: the kept
    // room gives way to the fifth (its history here is dropped), and one more read room is refused.
    expect((await post(server, 'kept', 'hello')).status).toBe(202);
    const open = await Promise.all(
      ['r0', 'r1', 'r2', 'r3', 'r4'].map((name) => openSse(`${server.url}/rooms/${name}`)),
    );
    expect(open.map((connection) => connection.status)).toEqual([200, 200, 200, 200, 200]);
    const refused = await fetch(`${server.url}/rooms/one-too-many`, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { code: string }).code).toBe('RXREST_BROADCAST_TOO_MANY_TOPICS');
    // A publish that would keep history in a sixth topic is refused the same way, before anything is sent.
    const publishRefused = await post(server, 'one-too-many', 'x');
    expect(publishRefused.status).toBe(503);
    const resumed = await openSse(`${server.url}/rooms/kept`, { 'last-event-id': '1-0' });
    expect(resumed.status).toBe(503);
    // The subscribers leave: their rooms go at once.
    for (const connection of open) connection.cut();
    await settle(200);
    const again = await Promise.all(
      ['s0', 's1', 's2', 's3', 's4'].map((name) => openSse(`${server.url}/rooms/${name}`)),
    );
    expect(again.map((connection) => connection.status)).toEqual([200, 200, 200, 200, 200]);
    for (const connection of again) connection.cut();
  });
});

describe('topics on redis-streams', () => {
  const redis = redisServer();
  let server: RunningServer;
  let client: Redis;
  beforeAll(async () => {
    await redis.start();
    client = new Redis(redis.url);
    const app = RestApplication.build({
      classes: [RoomResource],
      overrides: {
        'framework.rest.sse.keep-alive': '0',
        'framework.broadcast.backend': 'redis-streams',
        'framework.broadcast.redis.url': redis.url,
        'framework.broadcast.max-topics': 3,
      },
    });
    server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    await until(async () => ((await fetch(`${server.url}/q/health/ready`)).ok ? true : undefined), 'Redis');
  });
  afterAll(async () => {
    client.disconnect();
    await server.close();
  });

  it('leave no key in Redis for a room nobody reads, and are let go and refused past max-topics alike', async () => {
    const open = await Promise.all(['a', 'b', 'c'].map((name) => openSse(`${server.url}/rooms/${name}`)));
    expect(open.map((connection) => connection.status)).toEqual([200, 200, 200]);
    const refused = await fetch(`${server.url}/rooms/d`, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { code: string }).code).toBe('RXREST_BROADCAST_TOO_MANY_TOPICS');
    for (const connection of open) connection.cut();
    await Promise.all(open.map((connection) => connection.ended));
    await settle(100);
    const again = await Promise.all(['d', 'e', 'f'].map((name) => openSse(`${server.url}/rooms/${name}`)));
    expect(again.map((connection) => connection.status)).toEqual([200, 200, 200]);
    for (const connection of again) connection.cut();
    await settle(100);
    // Six rooms were read and left: none left a presence key (only resumable streams keep one).
    expect(await client.keys('rxrest:watch:*')).toEqual([]);
  });
});
