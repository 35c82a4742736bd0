// Fragmented messages over real sockets: a message within framework.websocket.max-message-size is taken in as many
// fragments as the size allows (one per 64 bytes, or framework.websocket.max-message-fragments), and one in more
// fragments closes the socket with 1008, as the docs list.
import { OnTextMessage, WebSocketEndpoint, type RunningServer } from '../../lib';
import { buildApp, withServer } from '../support/app';
import { openSocket, type TestSocket } from '../support/ws-client';

@WebSocketEndpoint('/ws/length')
class LengthSocket {
  @OnTextMessage
  measure(message: string): string {
    return `${message.length} ${message.slice(0, 3)}`;
  }
}

function serving(overrides: Record<string, string>, run: (server: RunningServer) => Promise<void>): Promise<void> {
  return withServer(buildApp([LengthSocket], overrides), run);
}

/** The sockets a test opened, cut after it whatever happened, so a failure leaves none open. */
const opened: TestSocket[] = [];
afterEach(() => opened.splice(0).forEach((socket) => socket.socket.terminate()));

/** Opens a socket and sends one text message of `count` fragments of `size` bytes each. */
async function sendFragmented(server: RunningServer, count: number, size: number): Promise<TestSocket> {
  const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/length`, { perMessageDeflate: false });
  opened.push(socket);
  await socket.opened;
  const fragment = 'abcdefgh'.repeat(size / 8);
  for (let n = 0; n < count; n++) {
    socket.socket.send(fragment, { fin: n === count - 1, binary: false });
    // Let the socket write now and then, as a real client does.
    if (n % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
  }
  return socket;
}

/** The first answer, or how the socket closed without one. */
const answerOf = (socket: TestSocket): Promise<string> =>
  Promise.race([socket.next(10_000), socket.closed.then((closed) => `closed with ${closed.code}`)]);

/** The code the server closed the socket with, or `open` when it had not within 5 s. */
const closeOf = async (socket: TestSocket): Promise<number | 'open'> => {
  let timer: NodeJS.Timeout | undefined;
  const stillOpen = new Promise<'open'>((resolve) => (timer = setTimeout(() => resolve('open'), 5_000)));
  try {
    return await Promise.race([socket.closed.then((closed) => closed.code), stillOpen]);
  } finally {
    clearTimeout(timer);
  }
};

describe('fragmented WebSocket messages', () => {
  it('takes a message of 20,000 fragments when max-message-size allows one per 64 bytes of it', async () => {
    await serving({ 'framework.websocket.max-message-size': '2M' }, async (server) => {
      const socket = await sendFragmented(server, 20_000, 64);
      expect(await answerOf(socket)).toBe(`${20_000 * 64} abc`);
      socket.socket.close(1000);
      expect((await socket.closed).code).toBe(1000);
    });
  }, 30_000);

  it('closes with 1008 past one fragment per 64 bytes of the default 1M (16,384)', async () => {
    await serving({}, async (server) => {
      const within = await sendFragmented(server, 16_384, 8);
      expect(await answerOf(within)).toBe(`${16_384 * 8} abc`);
      within.socket.close(1000);
      const past = await sendFragmented(server, 16_385, 8);
      expect(await closeOf(past)).toBe(1008);
      expect(past.received).toEqual([]);
    });
  }, 30_000);

  it('follows framework.websocket.max-message-fragments when set', async () => {
    await serving({ 'framework.websocket.max-message-fragments': '100' }, async (server) => {
      const within = await sendFragmented(server, 100, 8);
      expect(await answerOf(within)).toBe('800 abc');
      within.socket.close(1000);
      const past = await sendFragmented(server, 101, 8);
      expect(await closeOf(past)).toBe(1008);
    });
  });
});
