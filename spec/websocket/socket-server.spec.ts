// A WebSocket handshake still in the pipeline when the server shuts down (a filter or an authentication that takes its
// time), over a real socket: the socket it opens is closed with 1001 as those open before were, and the server's close()
// does not wait on it past the shutdown timeout.
import {
  NameBinding,
  OnTextMessage,
  ServerRequestFilter,
  WebSocketEndpoint,
  type RequestContext,
  type RunningServer,
} from '../../lib';
import { buildApp } from '../support/app';
import { openSocket, type Closed } from '../support/ws-client';

const Slow = NameBinding('Slow');

let entered: (() => void) | undefined;

class SlowFilter {
  /** Lets the upgrade through after a while, as a check against a slow store would. */
  @ServerRequestFilter()
  @Slow
  async slow(_ctx: RequestContext): Promise<void> {
    entered?.();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

@Slow
@WebSocketEndpoint('/ws/slow')
class SlowSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

@WebSocketEndpoint('/ws/quick')
class QuickSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

async function listen(): Promise<RunningServer> {
  const app = buildApp([SlowSocket, QuickSocket, SlowFilter], { 'framework.shutdown.timeout': '2s' });
  return app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
}

describe('a socket whose handshake is under way at shutdown', () => {
  it.each([
    ['the first socket of the application', false],
    ['a socket opening beside an open one', true],
  ])('is closed with 1001 once it opens (%s), and close() ends within the shutdown timeout', async (_case, beside) => {
    const server = await listen();
    const open = beside ? openSocket(`${server.url.replace(/^http/, 'ws')}/ws/quick`) : undefined;
    await open?.opened;
    const inFilter = new Promise<void>((resolve) => (entered = resolve));
    const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/slow`);
    let closedAs: Closed | undefined;
    void socket.closed.then((closed) => (closedAs = closed));
    try {
      await inFilter;
      const started = Date.now();
      const closing = server.close();
      // A client that opens answers no close of its own: the server's close is what ends it.
      await socket.opened.catch(() => undefined);
      await closing;
      expect(Date.now() - started).toBeLessThan(4_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(closedAs).toEqual({ code: 1001, reason: 'Server shutting down' });
      if (open) expect(await open.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
    } finally {
      entered = undefined;
      socket.socket.terminate();
      open?.socket.terminate();
    }
  });
});
