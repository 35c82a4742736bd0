// Messages that carry (almost) nothing still cost the server memory while they wait for their method: a Buffer and a
// queue slot each. A client sending a flood of empty messages to a method still busy with the first must be paused as
// one sending bytes is, so the flood waits in its own socket and not in the server's heap.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Body, OnTextMessage, WebSocketEndpoint } from '../../lib';
import { buildApp, withServer } from '../support/app';

const run = promisify(execFile);
const MESSAGES = 1_500_000;

/** Sends MESSAGES empty messages; prints what it still held a second after sending. */
const client = `
const { WebSocket } = require('ws');
const socket = new WebSocket(process.argv[1]);
socket.on('open', () => {
  socket.send('first');
  for (let i = 0; i < ${MESSAGES}; i++) socket.send('');
  setTimeout(() => {
    process.stdout.write(JSON.stringify({ waiting: socket.bufferedAmount }));
    socket.terminate();
  }, 1000);
});
`;

@WebSocketEndpoint('/ws/busy')
class BusySocket {
  /** Never done with the first message: every later one waits in the inbox. */
  @OnTextMessage
  busy(@Body({ type: String }) _message: string): Promise<string> {
    return new Promise(() => undefined);
  }
}

describe('a flood of empty WebSocket messages', () => {
  it('pauses the socket: a waiting message counts against the incoming buffer even when it carries no bytes', async () => {
    const app = buildApp([BusySocket], { 'framework.websocket.incoming-buffer': '64K' });
    await withServer(app, async (server) => {
      const { stdout } = await run(process.execPath, ['-e', client, `${server.url.replace(/^http/, 'ws')}/ws/busy`], {
        cwd: join(__dirname, '..', '..'),
        timeout: 60_000,
      });
      const { waiting } = JSON.parse(stdout) as { waiting: number };
      // 1.5 million empty frames are 9 MB on the wire (6 bytes each, masked). Paused after some 500 of them, the
      // server leaves most of it in the client beside what the kernel's socket buffers hold; read whole, none.
      expect(waiting).toBeGreaterThan(2 * 1024 * 1024);
    });
  }, 90_000);
});
