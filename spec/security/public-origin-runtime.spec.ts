// A request moved onto framework.http.public-base-url stays the request the runtime handed over: on Deno, a client
// that leaves in the middle of its body is still told from a server fault (499 at DEBUG, nothing at ERROR), as it is
// for a request whose Host is the public one. Moved by replacing the request, its body was read through a copy the
// runtime's failure never reached, and each such client left an ERROR with a stack in the log.
import { connect } from 'node:net';
import { startOn, type RuntimeServer } from '../runtime/support/runtime-server';

let server: RuntimeServer;
beforeAll(async () => {
  server = await startOn('deno', { overrides: { 'framework.http.public-base-url': 'https://api.example.com' } });
}, 120_000);
afterAll(() => server?.stop());

/** Sends the head of a JSON POST to /contract/echo with its body's start, then leaves. */
function leaveMidBody(): Promise<void> {
  const { hostname, port } = new URL(server.url);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    socket.write(
      `POST /contract/echo HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 1000\r\n\r\n{"a":"',
      () => setTimeout(() => (socket.destroy(), done()), 100),
    );
  });
}

describe('a request moved onto the public origin, on Deno', () => {
  it('is answered at the public origin, and a client leaving mid-body is no error of the server', async () => {
    const moved = await fetch(`${server.url}/contract/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect([moved.status, await moved.json()]).toEqual([200, { echoed: { a: 1 } }]);
    for (let n = 0; n < 3; n++) await leaveMidBody();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.output()).not.toMatch(/ERROR|Unhandled error/);
  });
});
