// What a socket's methods see of its upgrade request once the handshake is answered (and, under listen(), Node's
// request and response are let go): what one socket's exception mapper does to its response stays with that socket,
// and what a request filter kept in a property before the handshake is still there.
import {
  OnOpen,
  OnTextMessage,
  RequestContext,
  ResponseContext,
  RestResponse,
  ServerExceptionMapper,
  ServerRequestFilter,
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

describe("a socket's upgrade request after the handshake", () => {
  const app = buildApp([AnswerSocket]);
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
