// A handler slower than its client: a method taking a Multi of messages that waits 10 ms on each, while a client
// in another process sends 20 MB at once. The socket is paused while the handler lags, so the server holds about
// framework.websocket.incoming-buffer of them, not 20 MB, and every message arrives. Seen from the client: half a
// second after sending, most of the 20 MB still waits in its own socket (the server reads no faster than the
// handler works), where a server that read everything would have taken it all within milliseconds.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Body, Multi, OnTextMessage, WebSocketEndpoint } from '../../lib';
import { buildApp, withServer } from '../support/app';

const run = promisify(execFile);
const MESSAGES = 320;
const SIZE = 64 * 1024;

/** Sends MESSAGES messages of SIZE bytes at once, then `end`; prints the answer and what it still held 500 ms after sending. */
const client = `
const { WebSocket } = require('ws');
const socket = new WebSocket(process.argv[1]);
let waiting = 0;
socket.on('open', () => {
  const message = 'x'.repeat(${SIZE});
  for (let i = 0; i < ${MESSAGES}; i++) socket.send(message);
  socket.send('end');
  setTimeout(() => (waiting = socket.bufferedAmount), 500);
});
socket.on('message', (data) => {
  process.stdout.write(JSON.stringify({ answer: JSON.parse(data.toString()), waiting }));
  socket.close();
});
`;

@WebSocketEndpoint('/ws/slow')
class SlowSocket {
  @OnTextMessage
  slow(@Body({ type: String }) messages: Multi<string>): Multi<string> {
    return Multi.from(
      (async function* () {
        let bytes = 0;
        let count = 0;
        for await (const message of messages) {
          if (message === 'end') break;
          await new Promise((resolve) => setTimeout(resolve, 10));
          bytes += message.length;
          count++;
        }
        yield JSON.stringify({ bytes, count });
      })(),
    );
  }
}

describe('a handler slower than its client', () => {
  it('pauses the socket: 20 MB sent at once wait in the client while the handler works, and nothing is lost', async () => {
    await withServer(buildApp([SlowSocket]), async (server) => {
      const { stdout } = await run(process.execPath, ['-e', client, `${server.url.replace(/^http/, 'ws')}/ws/slow`], {
        cwd: join(__dirname, '..', '..'),
        timeout: 60_000,
      });
      const { answer, waiting } = JSON.parse(stdout) as { answer: unknown; waiting: number };
      expect(answer).toEqual({ bytes: MESSAGES * SIZE, count: MESSAGES });
      // In 500 ms the handler took about 50 messages (3 MB); the server holds at most 1M more
      // (framework.websocket.incoming-buffer) beside what the kernel's socket buffers hold: the rest waits at the client.
      expect(waiting).toBeGreaterThan(10 * 1024 * 1024);
    });
  }, 90_000);
});
