// A request whose URL is moved before routing (onto framework.http.public-base-url, or the origin trusted proxies
// forwarded) is rebuilt as a Web `Request` from the one the runtime handed over. Rebuilt from it as a whole, the copy
// read Deno's legacy `request.signal` (Deno then warns, once per process); rebuilt without it, the ending of an answer
// must still hear its client leave through the request the runtime handed over (Bun, workerd abort only that one's).
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { call } from './support/contract';
import { startFeatures } from './support/features';
import { ROOT, startOn, type Runtime, type RuntimeServer } from './support/runtime-server';
import { until } from '../support/until';

const SETUPS = {
  'the public base URL': { 'framework.http.public-base-url': 'https://api.example.com' },
  'the forwarded origin': { 'framework.http.proxy.proxy-address-forwarding': true },
} as const;
// What a proxy in front writes (the peer, on loopback, is the one trusted proxy): ignored under the public base URL.
const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.com' };

/** Opens /contract/endless, and leaves once its first event has arrived. */
function leaveStream(url: string): Promise<void> {
  return new Promise<void>((done, fail) => {
    const sent = httpRequest(`${url}/contract/endless`, {
      headers: { accept: 'text/event-stream', ...FORWARDED },
      agent: false,
    });
    sent.on('response', (response) => response.once('data', () => (sent.destroy(), done())));
    sent.on('error', (error) => (sent.destroyed ? undefined : fail(error)));
    sent.end();
  });
}

/** Sends the head of a JSON POST to /contract/echo with its body's start, then leaves. */
function leaveMidBody(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const forwarded = Object.entries(FORWARDED).map(([name, value]) => `${name}: ${value}\r\n`);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    socket.write(
      `POST /contract/echo HTTP/1.1\r\nHost: ${hostname}\r\n${forwarded.join('')}Content-Type: application/json\r\n` +
        'Content-Length: 1000\r\n\r\n{"a":"',
      () => setTimeout(() => (socket.destroy(), done()), 100),
    );
  });
}

async function openStreams(url: string): Promise<number> {
  const answer = await call(`${url}/contract/open`, { headers: FORWARDED });
  return (JSON.parse(answer.body.toString()) as { open: number }).open;
}

describe.each(['bun', 'deno', 'workerd'] satisfies Runtime[])(
  'a request moved onto another origin on %s',
  (runtime) => {
    describe.each(Object.keys(SETUPS) as (keyof typeof SETUPS)[])('by %s', (setup) => {
      let server: RuntimeServer;
      beforeAll(async () => {
        server = await startOn(runtime, { overrides: SETUPS[setup] });
      }, 120_000);
      afterAll(() => server?.stop());

      it('is answered, and a client leaving its stream still runs the clean-up', async () => {
        const moved = await call(`${server.url}/contract/echo`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...FORWARDED },
          body: '{"a":1}',
        });
        expect([moved.status, JSON.parse(moved.body.toString())]).toEqual([200, { echoed: { a: 1 } }]);
        for (let n = 0; n < 2; n++) await leaveStream(server.url);
        await until(
          async () => ((await openStreams(server.url)) === 0 ? true : undefined),
          'no stream open once its clients left',
          15_000,
          100,
        );
      }, 30_000);

      it('takes a client leaving mid-body for no error of the server', async () => {
        for (let n = 0; n < 2; n++) await leaveMidBody(server.url);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(server.output()).not.toMatch(/ERROR|Unhandled error/);
      });

      it('counts each client address on its own', async () => {
        const limited = (localAddress: string) =>
          call(`${server.url}/contract/limited`, { headers: FORWARDED, localAddress }).then((answer) => answer.status);
        const first = [await limited('127.0.0.1'), await limited('127.0.0.1'), await limited('127.0.0.1')];
        expect([...first, await limited('127.0.0.2')]).toEqual([200, 200, 429, 200]);
      });

      it("never reads Deno's legacy request.signal (Deno warns at the first read)", () => {
        expect(server.output()).not.toMatch(/legacy behavior|request\.signal/);
      });
    });
  },
);

// A filter's setRequestUri makes the request again too: from the one Deno handed over when nothing moved it before.
describe('a request a filter names anew on deno', () => {
  let server: RuntimeServer;
  beforeAll(async () => {
    server = await startOn('deno');
  }, 120_000);
  afterAll(() => server?.stop());

  it("is served, and Deno's legacy request.signal is never read", async () => {
    const renamed = await call(`${server.url}/contract/renamed-echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"b":2}',
    });
    expect([renamed.status, JSON.parse(renamed.body.toString())]).toEqual([200, { echoed: { b: 2 } }]);
    expect(server.output()).not.toMatch(/legacy behavior|request\.signal/);
  });
});

// Bun aborts the signal of the request it handed over when its client leaves; the copy's signal never aborts.
describe('a request moved onto the public origin on bun, its client gone before the answer', () => {
  let folder: string;
  let server: RuntimeServer;
  beforeAll(async () => {
    // Bundled for Node's platform, its packages left outside: a folder of the project's, where they resolve.
    await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
    folder = await mkdtemp(join(ROOT, 'node_modules/.cache/rxrest-bun-moved-'));
    const overrides = {
      'framework.http.public-base-url': 'https://api.example.com',
      'framework.metrics.enabled': 'true',
    };
    server = await startFeatures('bun', overrides, folder, { file: 'delivery-app', build: 'buildDeliveryApp' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it('is counted 499 in metrics, as one not moved', async () => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('GET /delivery/late HTTP/1.1\r\nHost: localhost\r\n\r\n');
    // It has reached the server by then, which answers after 2 s (see the fixture).
    await new Promise((done) => setTimeout(done, 500));
    socket.destroy();
    const line = await until(
      async () => {
        const metrics = (await call(`${server.url}/q/metrics`)).body.toString();
        return /^http_server_requests_seconds_count\{[^}]*uri="\/delivery\/late"[^}]*\} \d+$/m.exec(metrics)?.[0];
      },
      'the late request counted in the metrics',
      15_000,
      50,
    );
    expect(line).toMatch(/status="499".* 1$/);
  });
});
