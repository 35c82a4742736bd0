// What a socket's methods see of its upgrade request once the handshake is answered (and, under listen(), Node's
// request and response are let go): what one socket's exception mapper, or a method taking the response, does to it
// stays with that socket, and what a request filter kept in a property before the handshake is still there.
import {
  OnOpen,
  OnTextMessage,
  RequestContext,
  ResponseContext,
  RestResponse,
  ServerExceptionMapper,
  ServerRequestFilter,
  WebSocketConnection,
  WebSocketEndpoint,
} from '../../lib';
import { buildApp, withServer } from '../support/app';
import { openSocket } from '../support/ws-client';

@WebSocketEndpoint('/ws/answers')
class AnswerSocket {
  @ServerRequestFilter()
  keep(ctx: RequestContext): void {
    ctx.setProperty('caller', ctx.headerValue('x-caller') ?? 'nobody');
  }

  @OnOpen
  open(ctx: RequestContext): string {
    return JSON.stringify({ status: ctx.response?.status, header: ctx.response?.headers.get('x-mapped') ?? null });
  }

  @OnTextMessage
  say(message: string, ctx: RequestContext): string {
    if (message === 'fail') throw new Error('failed on purpose');
    return `${String(ctx.getProperty('caller'))} said ${message}`;
  }

  @ServerExceptionMapper()
  map(error: Error, response: ResponseContext): RestResponse<string> {
    response.status = 500;
    response.headers.set('x-mapped', error.message);
    return RestResponse.ok('mapped');
  }
}

/** Each socket marks the response it is given, and tells what it found there first. */
@WebSocketEndpoint('/ws/marks/{name}')
class MarkingSocket {
  @OnOpen
  open(response: ResponseContext, connection: WebSocketConnection): string {
    const found = { status: response.status, mark: response.headers.get('x-mark') ?? null };
    response.status = 299;
    response.headers.set('x-mark', connection.pathParam('name')!);
    return JSON.stringify(found);
  }
}

/** Reads the response it is given through the request, on each message. */
@WebSocketEndpoint('/ws/reads')
class ReadingSocket {
  @OnTextMessage
  read(message: string, ctx: RequestContext): string {
    if (message === 'mark') ctx.response!.headers.set('x-mark', 'reader');
    return JSON.stringify({ status: ctx.response?.status, mark: ctx.response?.headers.get('x-mark') ?? null });
  }
}

describe("a socket's upgrade request after the handshake", () => {
  const app = buildApp([AnswerSocket, MarkingSocket, ReadingSocket]);
  afterAll(() => app.close());

  it("keeps one socket's mapped response to that socket: the next one opens on a clean 101", async () => {
    await withServer(app, async (server) => {
      const url = `${server.url.replace(/^http/, 'ws')}/ws/answers`;
      const first = openSocket(url);
      await first.opened;
      expect(JSON.parse(await first.next())).toEqual({ status: 101, header: null });
      first.socket.send('fail');
      expect(await first.next()).toBe('mapped');
      expect((await first.closed).code).toBe(1011);

      const second = openSocket(url);
      await second.opened;
      expect(JSON.parse(await second.next())).toEqual({ status: 101, header: null });
      second.socket.close();
      await second.closed;
    });
  });

  it("gives a method taking the response one of its socket's own: what one socket writes there, no other sees", async () => {
    await withServer(app, async (server) => {
      const base = server.url.replace(/^http/, 'ws');
      const opened = [];
      for (const name of ['one', 'two']) {
        const socket = openSocket(`${base}/ws/marks/${name}`);
        await socket.opened;
        expect(JSON.parse(await socket.next())).toEqual({ status: 101, mark: null });
        opened.push(socket);
      }
      const reader = openSocket(`${base}/ws/reads`);
      await reader.opened;
      reader.socket.send('look');
      expect(JSON.parse(await reader.next())).toEqual({ status: 101, mark: null });
      reader.socket.send('mark');
      expect(JSON.parse(await reader.next())).toEqual({ status: 101, mark: 'reader' });
      const next = openSocket(`${base}/ws/marks/three`);
      await next.opened;
      expect(JSON.parse(await next.next())).toEqual({ status: 101, mark: null });
      for (const socket of [...opened, reader, next]) {
        socket.socket.close();
        await socket.closed;
      }
    });
  });

  it('reads in a message method what a request filter kept before the handshake', async () => {
    await withServer(app, async (server) => {
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/answers`, { headers: { 'x-caller': 'ada' } });
      await socket.opened;
      await socket.next();
      socket.socket.send('hello');
      expect(await socket.next()).toBe('ada said hello');
      socket.socket.close();
      await socket.closed;
    });
  });
});
