// WebSocket endpoints over real sockets with `ws` clients: the resource style (injection, open/message/close/error),
// messages decoded like bodies, answers in order, the upgrade through filters, and the close code of each ending.
import { finalize, map, Observable, of, range, takeWhile } from 'rxjs';
import { WebSocket } from 'ws';
import { z } from 'zod';
import {
  Body,
  broadcast,
  DefinitionError,
  RestResponse,
  ServerExceptionMapper,
  HeaderParam,
  Multi,
  NameBinding,
  OnBinaryMessage,
  OnClose,
  OnError,
  OnOpen,
  OnTextMessage,
  PathParam,
  QueryParam,
  RequestContext,
  ServerRequestFilter,
  WebApplicationException,
  WebSocketConnection,
  WebSocketEndpoint,
  type SseEvent,
} from '../../lib';
import { buildApp, call, withServer } from '../support/app';
import { openSocket, Refused, type TestSocket } from '../support/ws-client';
import { until } from '../support/until';
import { readFileSync } from 'node:fs';
import { selfSignedCertificate } from '../support/certificate';
import { tempDir } from '../support/temp-dir';

class ZeroError extends Error {}

class Point {
  static readonly schema = z.object({ x: z.number(), y: z.number() });
  x = 0;
  y = 0;
  get sum(): number {
    return this.x + this.y;
  }
}

const closes: { id: string; code: number | undefined }[] = [];

@WebSocketEndpoint('/ws/rooms/{room}')
class RoomSocket {
  @OnOpen
  open(connection: WebSocketConnection, room: string, @QueryParam('user') user: string): string {
    return `${user} joined ${room} as ${connection.id.length}-char id`;
  }

  @OnTextMessage
  say(message: string, @HeaderParam('x-client') client: string, room: string): string {
    return `${room}/${client}: ${message}`;
  }

  @OnClose
  closed(connection: WebSocketConnection): void {
    closes.push({ id: connection.id, code: connection.closeCode });
  }
}

@WebSocketEndpoint('/ws/echo')
class EchoSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }

  @OnBinaryMessage
  bytes(message: Buffer): Uint8Array {
    return Uint8Array.from(message).reverse();
  }
}

@WebSocketEndpoint('/ws/points')
class PointSocket {
  @OnTextMessage
  add(point: Point): { sum: number } {
    if (point.x < 0) throw new Error('negative points are not handled: a detail the client must not see');
    if (point.x === 0) throw new ZeroError('zero is refused');
    return { sum: point.sum };
  }
}

@WebSocketEndpoint('/ws/points-forgiving')
class ForgivingPointSocket {
  @OnTextMessage
  add(point: Point): Observable<number> {
    return of(point.x, point.y);
  }

  @OnError
  error(error: WebApplicationException): { refused: string | undefined } {
    return { refused: error.problem?.detail };
  }
}

@WebSocketEndpoint('/ws/lengths')
class LengthSocket {
  /** One call for the whole connection: a Multi in, a Multi out; when the answers complete, the socket closes. */
  @OnTextMessage
  lengths(@Body({ schema: z.string() }) messages: Multi<string>): Observable<number> {
    return messages.pipe(
      takeWhile((message) => message !== 'end'),
      map((message) => message.length),
    );
  }
}

@WebSocketEndpoint('/ws/delayed')
class DelayedSocket {
  /** Answers come in the order of the messages, whatever each one's delay. */
  @OnTextMessage
  async delayed(message: string): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, Number(message)));
    return message;
  }
}

@WebSocketEndpoint('/ws/flood/{count}')
class FloodSocket {
  @OnOpen
  flood(count: number): Observable<string> {
    return range(0, count).pipe(map((i) => `${i}:${'x'.repeat(1000)}`));
  }

  @OnTextMessage
  ignore(): void {}
}

/** What the server's sockets were handed (`ws`'s `send`), and what `ws` then held (`bufferedAmount`, its own count). */
interface Handed {
  count: number;
  bytes: number;
  held: number;
}

/** What the last burst produced, and what the server's sockets had been handed when it ended (complete or stopped). */
const burst = { produced: 0, producedBytes: 0, lastSize: 0, atEnd: { count: 0, bytes: 0, held: 0 } as Handed };
let handed: Handed = { count: 0, bytes: 0, held: 0 };

/** Counts every `send` of a socket other than `client` (the server's side), until `jest.restoreAllMocks()`. */
function watchServerSends(client: WebSocket): void {
  handed = { count: 0, bytes: 0, held: 0 };
  const send = WebSocket.prototype.send;
  jest.spyOn(WebSocket.prototype, 'send').mockImplementation(function (
    this: WebSocket,
    ...args: Parameters<WebSocket['send']>
  ) {
    send.apply(this, args);
    if (this === client) return;
    handed.count++;
    handed.bytes += (args[0] as string).length;
    handed.held = this.bufferedAmount;
  });
}

@WebSocketEndpoint('/ws/burst/{count}')
class BurstSocket {
  /**
   * On a message: `count` messages of about 1 KB, each a microtask after the last — one burst the client (in this
   * process) cannot read during, so everything past the kernel's buffers waits in the server — stopped as soon as the
   * session unsubscribes.
   */
  @OnTextMessage
  go(message: string, count: number): Observable<string> {
    Object.assign(burst, { produced: 0, producedBytes: 0, lastSize: 0 });
    return new Observable<string>((subscriber) => {
      void (async () => {
        for (let i = 0; i < count && !subscriber.closed; i++) {
          await null;
          const item = `${i}:${'x'.repeat(1000)}`;
          Object.assign(burst, { produced: burst.produced + 1, producedBytes: burst.producedBytes + item.length });
          burst.lastSize = item.length;
          subscriber.next(item);
        }
        subscriber.complete();
      })();
    }).pipe(finalize(() => (burst.atEnd = { ...handed })));
  }
}

@WebSocketEndpoint('/ws/news')
class NewsSocket {
  @OnOpen
  join(): Observable<SseEvent> {
    return broadcast<{ title: string }>('ws-spec-news').subscribe();
  }
}

const Blocked = NameBinding('Blocked');

class BlockingFilter {
  @ServerRequestFilter()
  @Blocked
  block(ctx: RequestContext): void {
    if (ctx.headers.get('x-pass') !== 'yes') ctx.abortWith(new Response('no pass', { status: 401 }));
  }
}

@Blocked
@WebSocketEndpoint('/ws/guarded')
class GuardedSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

const classes = [
  RoomSocket,
  EchoSocket,
  PointSocket,
  ForgivingPointSocket,
  LengthSocket,
  DelayedSocket,
  FloodSocket,
  BurstSocket,
  NewsSocket,
  GuardedSocket,
  BlockingFilter,
];

const certificates = tempDir('websocket-tls');
const { certificate, key } = selfSignedCertificate(certificates);

function socketUrl(url: string, path: string): string {
  return url.replace(/^http/, 'ws') + path;
}

describe('WebSocket endpoints', () => {
  it('inject the connection, path and query parameters and upgrade headers; @OnClose sees the close code', async () => {
    await withServer(buildApp(classes), async (server) => {
      const socket = openSocket(socketUrl(server.url, '/ws/rooms/blue?user=ada'), { headers: { 'x-client': 'cli' } });
      expect(await socket.next()).toBe('ada joined blue as 36-char id');
      socket.socket.send('hello');
      expect(await socket.next()).toBe('blue/cli: hello');
      socket.socket.close(4000, 'bye');
      expect(await socket.closed).toEqual({ code: 4000, reason: 'bye' });
      const closed = await until(() => closes.find((entry) => entry.code === 4000), 'the @OnClose call');
      expect(closed.id).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  it('echo 100,000 messages in order, text and binary', async () => {
    await withServer(buildApp(classes), async (server) => {
      const socket = openSocket(socketUrl(server.url, '/ws/echo'));
      await socket.opened;
      const count = 100_000;
      let next = 0;
      let disorder = 0;
      const done = new Promise<void>((resolve) =>
        socket.socket.on('message', (data: Buffer) => {
          if (data.toString() !== String(next)) disorder++;
          if (++next === count) resolve();
        }),
      );
      for (let i = 0; i < count; i++) socket.socket.send(String(i));
      await done;
      expect(disorder).toBe(0);
      socket.socket.send(Buffer.from([1, 2, 3]));
      await until(() => socket.received.find((message) => message.startsWith('bytes:')), 'the binary echo');
      expect(socket.received.find((message) => message.startsWith('bytes:'))).toBe('bytes:030201');
      socket.socket.close();
    });
  }, 60_000);

  it('send the answers of a Promise-returning method in the order of the messages', async () => {
    await withServer(buildApp(classes), async (server) => {
      const socket = openSocket(socketUrl(server.url, '/ws/delayed'));
      await socket.opened;
      for (const wait of ['60', '1', '30', '0']) socket.socket.send(wait);
      expect([await socket.next(), await socket.next(), await socket.next(), await socket.next()]).toEqual([
        '60',
        '1',
        '30',
        '0',
      ]);
      socket.socket.close();
    });
  });

  it('decode JSON messages to the declared class, validated by its schema; a bad one closes with 1007', async () => {
    await withServer(buildApp(classes), async (server) => {
      const socket = openSocket(socketUrl(server.url, '/ws/points'));
      await socket.opened;
      socket.socket.send(JSON.stringify({ x: 2, y: 3 }));
      expect(JSON.parse(await socket.next())).toEqual({ sum: 5 });
      socket.socket.send(JSON.stringify({ x: 'two', y: 3 }));
      expect(await socket.closed).toEqual({ code: 1007, reason: 'The message is invalid' });
      const broken = openSocket(socketUrl(server.url, '/ws/points'));
      await broken.opened;
      broken.socket.send('{"x": ');
      const closed = await broken.closed;
      expect(closed.code).toBe(1007);
      expect(closed.reason).toMatch(/^The message is not valid JSON/);
    });
  });

  it('hand a bad message to @OnError, whose answer is sent; the socket stays open', async () => {
    await withServer(buildApp(classes), async (server) => {
      const socket = openSocket(socketUrl(server.url, '/ws/points-forgiving'));
      await socket.opened;
      socket.socket.send(JSON.stringify({ x: 1 }));
      expect(JSON.parse(await socket.next())).toEqual({ refused: 'The message is invalid' });
      socket.socket.send(JSON.stringify({ x: 1, y: 2 }));
      expect([await socket.next(), await socket.next()]).toEqual(['1', '2']);
      socket.socket.close();
      expect((await socket.closed).code).toBe(1005);
    });
  });

  it('close with 1011 when a method fails, after the exception mappers had their say', async () => {
    class ZeroMapper {
      @ServerExceptionMapper()
      map(error: ZeroError): RestResponse<{ mapped: string }> {
        return RestResponse.status(409, { mapped: error.message });
      }
    }
    await withServer(buildApp([...classes, ZeroMapper]), async (server) => {
      const failing = openSocket(socketUrl(server.url, '/ws/points'));
      await failing.opened;
      failing.socket.send(JSON.stringify({ x: -1, y: 0 }));
      const problem = JSON.parse(await failing.next()) as Record<string, unknown>;
      expect(problem).toMatchObject({ status: 500, code: 'RXREST_INTERNAL_ERROR' });
      expect(JSON.stringify(problem)).not.toContain('negative');
      expect(await failing.closed).toEqual({ code: 1011, reason: 'The endpoint failed' });
      const mapped = openSocket(socketUrl(server.url, '/ws/points'));
      await mapped.opened;
      mapped.socket.send(JSON.stringify({ x: 0, y: 0 }));
      expect(JSON.parse(await mapped.next())).toEqual({ mapped: 'zero is refused' });
      expect((await mapped.closed).code).toBe(1011);
    });
  });

  it('give a method that takes a Multi every message, and close with 1000 when its answers complete', async () => {
    await withServer(buildApp(classes), async (server) => {
      const socket = openSocket(socketUrl(server.url, '/ws/lengths'));
      await socket.opened;
      for (const message of ['"a"', '"abc"', '"abcdef"']) socket.socket.send(message);
      expect([await socket.next(), await socket.next(), await socket.next()]).toEqual(['1', '3', '6']);
      socket.socket.send('"end"');
      expect(await socket.closed).toEqual({ code: 1000, reason: '' });
    });
  });

  it('close with 1009 when a message is past framework.websocket.max-message-size', async () => {
    await withServer(buildApp(classes, { 'framework.websocket.max-message-size': '1K' }), async (server) => {
      const socket = openSocket(socketUrl(server.url, '/ws/echo'));
      await socket.opened;
      socket.socket.send('x'.repeat(1024));
      expect(await socket.next()).toHaveLength(1024);
      socket.socket.send('x'.repeat(1025));
      expect((await socket.closed).code).toBe(1009);
    });
  });

  it('close a socket silent for framework.websocket.idle-timeout with 1001, and cut a peer that stops answering pings', async () => {
    const app = buildApp(classes, {
      'framework.websocket.idle-timeout': '300ms',
      'framework.websocket.ping-interval': '100ms',
    });
    await withServer(app, async (server) => {
      const started = Date.now();
      const idle = openSocket(socketUrl(server.url, '/ws/echo'));
      await idle.opened;
      expect(await idle.closed).toEqual({ code: 1001, reason: 'Idle timeout' });
      // By the 300 ms idle timeout, not by anything else (idle sockets are never closed by default): 3 s leaves room
      // for a loaded machine's late timers.
      expect(Date.now() - started).toBeLessThan(3_000);
      const deaf = openSocket(socketUrl(server.url, '/ws/echo'), { autoPong: false });
      await deaf.opened;
      // No pong to the first ping by the second: the connection is cut (the client sees no close frame).
      expect((await deaf.closed).code).toBe(1006);
    });
  });

  // A budget past the 64 KB a socket is handed at most, so the server's own queue holds messages too.
  const BUDGET = 256 * 1024;
  const budgeted = (overflow: string) =>
    buildApp(classes, { 'framework.rest.stream.buffer-size': '256K', 'framework.rest.stream.overflow': overflow });
  const numberOf = (message: string) => Number(message.split(':')[0]);
  const upTo = (count: number, from = 0) => Array.from({ length: count }, (_, n) => from + n);

  /** Opens a burst of `count` messages to a client, watching what the server hands its socket. */
  async function startBurst(url: string, count: number): Promise<TestSocket> {
    const socket = openSocket(socketUrl(url, `/ws/burst/${count}`));
    await socket.opened;
    watchServerSends(socket.socket);
    socket.socket.send('go');
    return socket;
  }

  afterEach(() => jest.restoreAllMocks());

  it('under fail, close with 1011 when what the server holds for a socket would pass the budget: it held up to it', async () => {
    await withServer(budgeted('fail'), async (server) => {
      const socket = await startBurst(server.url, 20_000);
      expect((await socket.closed).code).toBe(1011);
      // At the overflow the server held what `ws` had (bufferedAmount) and what waited in its queue (produced, not
      // handed, the refused message aside): within one message of the budget, never past it.
      const queued = burst.producedBytes - burst.lastSize - burst.atEnd.bytes;
      const held = burst.atEnd.held + queued;
      expect(queued).toBeGreaterThan(0);
      expect(held).toBeLessThanOrEqual(BUDGET);
      expect(held).toBeGreaterThan(BUDGET - burst.lastSize);
      // The source stopped there. What was accepted went out in order, then the exception mappers' answer; the
      // refused message never did.
      expect(burst.produced).toBeLessThan(20_000);
      const messages = socket.received;
      expect(messages.slice(0, -1).map(numberOf)).toEqual(upTo(burst.produced - 1));
      expect(JSON.parse(messages.at(-1)!)).toMatchObject({ type: expect.stringMatching(/^urn:rxrest:problem:/) });
    });
  });

  it('under drop-oldest keep the newest messages that fit the budget, however long the burst', async () => {
    await withServer(budgeted('drop-oldest'), async (server) => {
      // Under latest (every waiting message dropped at an overflow, the queue refilling after) a burst ends with
      // anything from one message to a budget's worth queued: three bursts all ending full would be a 1-in-a-million
      // chance. Under drop-oldest the queue stays full once it first overflowed.
      for (const count of [20_000, 20_061, 20_127]) {
        const socket = await startBurst(server.url, count);
        const last = `${count - 1}:`;
        await until(() => socket.received.find((message) => message.startsWith(last)), 'the last message');
        // What the socket had been handed during the burst arrives whole, then what the queue kept, in order.
        const early = burst.atEnd.count;
        expect(socket.received.slice(0, early).map(numberOf)).toEqual(upTo(early));
        const kept = socket.received.slice(early);
        expect(kept.map(numberOf)).toEqual(upTo(kept.length, count - kept.length));
        // The server held what `ws` had and the kept messages: the budget, to within two messages.
        const held = burst.atEnd.held + kept.reduce((bytes, message) => bytes + message.length, 0);
        expect(held).toBeLessThanOrEqual(BUDGET);
        expect(held).toBeGreaterThan(BUDGET - 2 * burst.lastSize);
        socket.socket.close();
        jest.restoreAllMocks();
      }
    });
  });

  it('close every socket with 1001 at shutdown, after the messages queued for it', async () => {
    const server = await buildApp(classes).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const socket = openSocket(socketUrl(server.url, '/ws/flood/5000'));
    await socket.opened;
    // The client reads nothing for a while: the 5,000 messages (5 MB) wait in the server's queue and socket.
    socket.socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = server.close();
    setTimeout(() => socket.socket.resume(), 200);
    expect(await socket.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
    expect(socket.received).toHaveLength(5000);
    expect(socket.received.at(-1)).toMatch(/^4999:/);
    await closing;
  });

  it('send a broadcast topic to every socket that subscribed to it', async () => {
    await withServer(buildApp(classes), async (server) => {
      const sockets = Array.from({ length: 5 }, () => openSocket(socketUrl(server.url, '/ws/news')));
      await Promise.all(sockets.map((socket) => socket.opened));
      await until(() => (broadcast('ws-spec-news').subscribers === 5 ? true : undefined), 'five subscribers');
      await broadcast<{ title: string }>('ws-spec-news').publish({ title: 'out now' });
      for (const socket of sockets) expect(JSON.parse(await socket.next())).toEqual({ title: 'out now' });
      for (const socket of sockets) socket.socket.close();
      await until(() => (broadcast('ws-spec-news').subscribers === 0 ? true : undefined), 'no subscriber left');
    });
  });
});

describe('WebSocket upgrades', () => {
  it('go through name-bound filters: one that aborts answers its status, and no socket opens', async () => {
    await withServer(buildApp(classes), async (server) => {
      const refused = openSocket(socketUrl(server.url, '/ws/guarded'));
      const error = await refused.opened.catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(Refused);
      expect((error as Refused).status).toBe(401);
      expect((error as Refused).body).toBe('no pass');
      const admitted = openSocket(socketUrl(server.url, '/ws/guarded'), { headers: { 'x-pass': 'yes' } });
      await admitted.opened;
      admitted.socket.send('in');
      expect(await admitted.next()).toBe('in');
      admitted.socket.close();
      // The filter is bound to that class only.
      const open = openSocket(socketUrl(server.url, '/ws/echo'));
      await open.opened;
      open.socket.close();
    });
  });

  it.each([
    ['the HTTP/2 port (its HTTP/1.1 side)', 'true'],
    ['an HTTPS/1.1 port', 'false'],
  ])('open over TLS (wss:) on %s', async (_port, http2) => {
    const tls = {
      'framework.http.ssl.certificate.file': certificate,
      'framework.http.ssl.certificate.key-file': key,
      'framework.http.ssl-port': '0',
      'framework.http.http2': http2,
    };
    await withServer(buildApp(classes, tls), async (server) => {
      expect(server.url).toMatch(/^https:/);
      const socket = openSocket(socketUrl(server.url, '/ws/echo'), { ca: readFileSync(certificate) });
      await socket.opened;
      socket.socket.send('secret');
      expect(await socket.next()).toBe('secret');
      socket.socket.close();
    });
  });

  it('answer 404 where no endpoint is, and 426 to a request that is no WebSocket upgrade', async () => {
    const app = buildApp(classes);
    await withServer(app, async (server) => {
      const nowhere = openSocket(socketUrl(server.url, '/ws/nowhere'));
      expect(((await nowhere.opened.catch((failure: unknown) => failure)) as Refused).status).toBe(404);
      const plain = await fetch(`${server.url}/ws/echo`);
      expect(plain.status).toBe(426);
      expect(plain.headers.get('upgrade')).toBe('websocket');
      expect(await plain.json()).toMatchObject({ status: 426, code: 'RXREST_UPGRADE_REQUIRED' });
    });
    // In process there is no socket to take over: the same 426.
    const inProcess = await call(app, '/ws/echo', { headers: { upgrade: 'websocket', connection: 'Upgrade' } });
    expect(inProcess.status).toBe(426);
  });

  it('are listed among the endpoints, and left out of the OpenAPI document', () => {
    const app = buildApp([EchoSocket]);
    expect(app.endpoints).toEqual([{ method: 'WEBSOCKET', path: '/ws/echo', resource: 'EchoSocket', handler: 'echo' }]);
    expect(Object.keys(app.openapi().paths ?? {})).not.toContain('/ws/echo');
  });
});

describe('WebSocket endpoint definitions', () => {
  it('fail the build naming the class and method: two message methods of a kind, a message on @OnOpen, no method', () => {
    @WebSocketEndpoint('/a')
    class TwoTexts {
      @OnTextMessage
      one(message: string): string {
        return message;
      }

      @OnTextMessage
      two(message: string): string {
        return message;
      }
    }
    @WebSocketEndpoint('/b')
    class OpenWithMessage {
      @OnOpen
      open(message: string): string {
        return message;
      }
    }
    @WebSocketEndpoint('/c')
    class Empty {
      @OnClose
      closed(@PathParam('id') id: string): string {
        return id;
      }
    }
    let error: unknown;
    try {
      buildApp([TwoTexts, OpenWithMessage, Empty]);
    } catch (failure) {
      error = failure;
    }
    expect(error).toBeInstanceOf(DefinitionError);
    const message = (error as Error).message;
    expect(message).toContain("TwoTexts#two: TwoTexts#one is already the class's @OnTextMessage method");
    expect(message).toContain('OpenWithMessage#open(message): an @OnOpen method takes no message');
    expect(message).toContain(
      'Empty: a @WebSocketEndpoint class needs an @OnOpen, @OnTextMessage or @OnBinaryMessage method',
    );
    expect(message).toContain('the path parameter "id" is not a variable of the template /c');
  });
});
