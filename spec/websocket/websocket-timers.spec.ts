// Idle sockets cost no timer each: with pings and an idle timeout on, a hundred more open sockets set no timer (one
// timer pings all of an application's sockets, one checks their idleness), and the idle timeout still closes each
// silent socket with 1001.
import { OnTextMessage, WebSocketEndpoint } from '../../lib';
import { buildApp, withServer } from '../support/app';
import { openSocket } from '../support/ws-client';

@WebSocketEndpoint('/ws/quiet')
class QuietSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

describe('idle WebSockets', () => {
  it('hold no timer each for their pings and idle timeout', async () => {
    const app = buildApp([QuietSocket], {
      'framework.websocket.idle-timeout': '2s',
      'framework.websocket.ping-interval': '1s',
    });
    await withServer(app, async (server) => {
      const url = `${server.url.replace(/^http/, 'ws')}/ws/quiet`;
      // The first socket brings what any socket brings once (the application's timers among it).
      const first = openSocket(url);
      await first.opened;
      const timers = jest.spyOn(global, 'setTimeout');
      const more = Array.from({ length: 100 }, () => openSocket(url));
      await Promise.all(more.map((socket) => socket.opened));
      // Those a hundred sockets set, once open: not one each.
      expect(timers.mock.calls.length).toBeLessThan(10);
      timers.mockRestore();
      const closed = await Promise.all([first, ...more].map((socket) => socket.closed));
      expect(new Set(closed.map(({ code, reason }) => `${code} ${reason}`))).toEqual(new Set(['1001 Idle timeout']));
    });
  }, 30_000);
});
