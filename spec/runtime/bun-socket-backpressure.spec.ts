import { openDeafSocket } from './support/deaf-socket';
import { startOn, type RuntimeServer } from './support/runtime-server';
import { describeSocketBackpressure } from './support/socket-backpressure';

describeSocketBackpressure('bun');

describe("a socket past Bun's backpressureLimit", () => {
  let server: RuntimeServer;

  beforeAll(async () => {
    // Bun drops a message sent while the socket holds more than this: rxrest hands a socket more while it holds less
    // than 64 KB, so a limit this low is passed.
    server = await startOn('bun', {
      fixture: { file: 'backpressure-app', build: 'buildBackpressureApp' },
      bunSockets: { backpressureLimit: 16_384 },
    });
  }, 60_000);

  afterAll(() => server?.stop());

  it('closes with 1011 at the first message Bun drops, never going on past a gap', async () => {
    const socket = await openDeafSocket(`${server.url.replace(/^http/, 'ws')}/backpressure/pulled/2000`, 'go');
    // Until the kernel's buffers are full, the messages are written at once, then Bun queues, then it drops.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    socket.listen();
    expect(await socket.closed).toBe(1011);
    const numbers = socket.messages.map((message) => Number(message.split(':')[0]));
    expect(numbers.length).toBeLessThan(2000);
    expect(numbers).toEqual(numbers.map((_, n) => n));
  }, 60_000);
});
