/** The runtime contract, run against a server of spec/runtime/support/runtime-server.ts over real sockets. */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { openSocket } from '../../support/ws-client';
import { STEP_MS, until, within } from '../../support/until';
import { startOn, type Runtime, type RuntimeServer, type StartOptions } from './runtime-server';

export interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  /** When the head arrived, and when each chunk did (ms since the request). */
  readonly headAt: number;
  readonly chunks: { at: number; text: string }[];
}

/** One request over its own connection, from `localAddress` (two loopback addresses make two clients). */
export function call(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
    localAddress?: string;
    /** How long the whole answer may take before its request is cut and this fails. */
    timeoutMs?: number;
  } = {},
): Promise<Answer> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? STEP_MS;
  let timer: NodeJS.Timeout | undefined;
  return new Promise<Answer>((done, fail) => {
    const sent = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, agent: false },
      (response) => {
        const headAt = Date.now() - started;
        const chunks: { at: number; text: string }[] = [];
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          parts.push(chunk);
          chunks.push({ at: Date.now() - started, text: chunk.toString('latin1') });
        });
        response.on('end', () =>
          done({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(parts), headAt, chunks }),
        );
        response.on('error', fail);
      },
    );
    sent.on('error', fail);
    sent.end(options.body);
    timer = setTimeout(() => {
      fail(new Error(`no whole answer to ${options.method ?? 'GET'} ${url} within ${timeoutMs} ms`));
      sent.destroy();
    }, timeoutMs);
  }).finally(() => clearTimeout(timer));
}

const json = (answer: Answer): unknown => JSON.parse(answer.body.toString('utf8'));

/** A GET with `host` as its Host header, written by hand (a client library would refuse or fix it). */
function rawGet(
  url: string,
  target: string,
  host: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', fail);
    socket.on('end', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [status, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      done({ status: Number(status!.split(' ')[1]), headers, body: headers['transfer-encoding'] ? '' : body });
    });
    socket.end(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

/** Opens the endless SSE stream at `url` and, once its first chunk came, leaves it (cuts the connection). */
export function leaveEndlessStream(url: string): Promise<void> {
  return within(
    new Promise<void>((done, fail) => {
      const sent = httpRequest(url, { headers: { accept: 'text/event-stream' }, agent: false });
      sent.on('response', (response) => response.once('data', () => (sent.destroy(), done())));
      sent.on('error', (error) => (sent.destroyed ? undefined : fail(error)));
      sent.end();
    }),
    'the first chunk of the endless stream',
  );
}

/** The contract's specs on `runtime` (started with `options`, named by `title`): one server for all of them. */
export function describeContract(
  runtime: Runtime,
  more?: (server: () => RuntimeServer) => void,
  { title = `the contract application on ${runtime}`, ...options }: StartOptions & { title?: string } = {},
): void {
  describe(title, () => {
    let server: RuntimeServer;
    const at = (path: string) => `${server.url}${path}`;

    beforeAll(async () => {
      server = await startOn(runtime, options);
    }, 60_000);

    afterAll(() => server?.stop());

    it('answers JSON, a JSON POST and a problem for an unknown path', async () => {
      expect(json(await call(at('/contract/json')))).toEqual({ hello: 'runtime' });
      const echoed = await call(at('/contract/echo'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect([echoed.status, json(echoed)]).toEqual([200, { echoed: { a: 1 } }]);
      const missing = await call(at('/nowhere'));
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(json(missing)).toMatchObject({ status: 404 });
    });

    it('answers a Host that makes no URL with a 400 problem, never with another path', async () => {
      // Deno puts the Host as it came before the target, Bun the bare target: '/nowhere' was served as /contract/json.
      for (const host of ['x/contract/json#', 'x/contract/json?', 'a b', 'a.example:99999', '']) {
        const answer = await rawGet(server.url, '/nowhere/contract/json', host);
        expect([host, answer.body]).not.toEqual([host, expect.stringContaining('"hello"')]);
        // Miniflare's own front refuses these (500 or 400, text) before the Worker runs.
        if (runtime === 'workerd') expect([host, answer.status >= 400]).toEqual([host, true]);
        else {
          expect([host, answer.status, answer.headers['content-type']]).toEqual([
            host,
            400,
            'application/problem+json;charset=UTF-8',
          ]);
          expect(JSON.parse(answer.body)).toMatchObject({ code: 'RXREST_MALFORMED_PATH' });
        }
      }
    });

    it('takes a client leaving in the middle of a body for what it is, not an error of the server', async () => {
      const { hostname, port } = new URL(server.url);
      // A JSON body read whole, a body of items read as they come (a Multi), and one the method reads as a stream.
      const cutShort = [
        ['/contract/echo', 'application/json', '{"a":"'],
        ['/contract/count', 'application/x-ndjson', '1\n2\n'],
        ['/contract/stream-length', 'application/octet-stream', 'abc'],
      ];
      for (let n = 0; n < 6; n++)
        await new Promise<void>((done) => {
          const [path, type, start] = cutShort[n % 3]!;
          const socket = connect(Number(port), hostname);
          socket.on('error', () => undefined);
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: ${type}\r\n` +
              `Content-Length: 1000\r\n\r\n${start}`,
            () => setTimeout(() => (socket.destroy(), done()), 100),
          );
        });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(server.output()).not.toContain('Unhandled error');
      expect(json(await call(at('/contract/json')))).toEqual({ hello: 'runtime' });
    });

    it('hands an event one request publishes to the streams other requests opened, event after event', async () => {
      const heard: string[] = [];
      const listening = new Promise<void>((opened, fail) => {
        const sent = httpRequest(
          at('/contract/room'),
          { headers: { accept: 'text/event-stream' }, agent: false },
          (response) => {
            opened();
            response.setEncoding('utf8');
            response.on('data', (text: string) => {
              heard.push(...(text.match(/^data:.*$/gm) ?? []));
              if (heard.length >= 3) sent.destroy();
            });
          },
        );
        sent.on('error', fail);
        sent.end();
      });
      await listening;
      // The subscription may join the topic just after the head: say the first line until it is heard.
      for (let tries = 0; heard.length === 0 && tries < 100; tries++) {
        await call(at('/contract/room'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'one' });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const text of ['two', 'three'])
        await call(at('/contract/room'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: text });
      for (let waited = 0; heard.length < 3 && waited < 10_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard.slice(-2)).toEqual(['data:two', 'data:three']);
    });

    it('sends the head of an event stream at once and each event as it comes', async () => {
      const answer = await call(at('/contract/events'), { headers: { accept: 'text/event-stream' } });
      const events = answer.chunks.filter((chunk) => chunk.text.includes('data:'));
      expect(answer.body.toString().match(/^data:.*$/gm)).toEqual(['data:0', 'data:1', 'data:2']);
      // Events come 300 ms apart: the head is out before the first, the first well before the last.
      expect(events[0]!.at - answer.headAt).toBeGreaterThan(150);
      expect(events.at(-1)!.at - events[0]!.at).toBeGreaterThan(300);
    });

    it("answers HEAD with the GET's headers, and never a Content-Length but the GET's", async () => {
      // The connection's own headers, and a stream's framing (a HEAD may tell it, or not: RFC 9112 §6.1), aside. A
      // HEAD may leave the length out (Bun sends one for a stream that ended before its head, which a HEAD cannot know).
      const head = ({ headers }: Answer) => {
        const { date, connection, 'keep-alive': keepAlive, 'transfer-encoding': framing, ...kept } = headers;
        return kept;
      };
      for (const [path, accept] of [
        ['/contract/events', 'text/event-stream'],
        ['/contract/lines', 'application/x-ndjson'],
        ['/contract/json', 'application/json'],
      ] as const) {
        const got = await call(at(path), { headers: { accept } });
        const headed = await call(at(path), { method: 'HEAD', headers: { accept } });
        const length = headed.headers['content-length'];
        const expected = {
          ...head(got),
          'content-length': length === undefined ? undefined : got.headers['content-length'],
        };
        expect([path, headed.status, head(headed), headed.body.length]).toEqual([path, 200, expected, 0]);
      }
    });

    it('sends a problem answered by a streaming endpoint with its length, not chunked', async () => {
      // A parameter that does not convert: the stream's place was taken, its clean-up is to run once this is sent.
      const problem = await call(at('/contract/ticks?count=many'));
      const { status, headers } = problem;
      expect([status, headers['transfer-encoding'], headers['content-length']]).toEqual([
        404,
        undefined,
        String(problem.body.length),
      ]);
      expect(json(problem)).toMatchObject({ status: 404, code: 'RXREST_PARAMETER_NOT_FOUND' });
    });

    it('streams NDJSON and reads items sent as NDJSON', async () => {
      const lines = await call(at('/contract/lines'));
      expect(lines.body.toString()).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
      const counted = await call(at('/contract/count'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: '1\n2\n3\n',
      });
      expect(json(counted)).toEqual({ count: 3, sum: 6 });
    });

    it('compresses an answer once: gzip the client can decode', async () => {
      const answer = await call(at('/contract/text'), { headers: { 'accept-encoding': 'gzip' } });
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(answer.body).toString()).toBe('rxrest on every runtime. '.repeat(200));
    });

    it('counts each client address on its own', async () => {
      const first = [];
      for (let i = 0; i < 3; i++)
        first.push((await call(at('/contract/limited'), { localAddress: '127.0.0.1' })).status);
      const other = await call(at('/contract/limited'), { localAddress: '127.0.0.2' });
      expect([...first, other.status]).toEqual([200, 200, 429, 200]);
    });

    it("injects Hono's Context with the runtime's bindings (and Workers' execution context)", async () => {
      expect(json(await call(at('/contract/hono')))).toEqual({
        path: '/contract/hono',
        env: true,
        context: true,
        waitUntil: runtime === 'workerd',
      });
    });

    it('stops a stream whose client left (its clean-up runs)', async () => {
      await leaveEndlessStream(at('/contract/endless'));
      await until(
        async () => ((json(await call(at('/contract/open'))) as { open: number }).open === 0 ? true : undefined),
        'no stream open once its client left',
        15_000,
        100,
      );
    });

    it('echoes on a WebSocket upgraded through the runtime’s own API', async () => {
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/contract/echo-socket`);
      await socket.opened;
      expect(await socket.next()).toBe('hello');
      socket.socket.send('one');
      socket.socket.send('two');
      expect([await socket.next(), await socket.next()]).toEqual(['echo: one', 'echo: two']);
      socket.socket.close(1000, 'done');
      expect(await socket.closed).toMatchObject({ code: 1000 });
    });

    it('closes a socket with 1009 on a message past framework.websocket.max-message-size (1M), unread', async () => {
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/contract/echo-socket`, { maxPayload: 0 });
      await socket.opened;
      expect(await socket.next()).toBe('hello');
      socket.socket.send('x'.repeat(1024 * 1024 + 1));
      expect((await socket.closed).code).toBe(1009);
      // The message never reached the endpoint: nothing was echoed.
      expect(socket.received).toEqual(['hello']);
    });

    it('answers a handshake the runtime cannot take with a 400 problem, not a failure', async () => {
      const refused = await call(at('/contract/echo-socket'), {
        headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13' },
      });
      expect(refused.status).toBe(400);
      // workerd's own front refuses it before the Worker runs (400, text); on Bun and Deno rxrest answers.
      if (runtime === 'workerd') return;
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(json(refused)).toMatchObject({ status: 400, code: 'RXREST_MALFORMED_HANDSHAKE' });
    });

    it('sends a 3 MB burst on opening a socket, every message in order', async () => {
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/contract/burst-socket`);
      await socket.opened;
      const heard: number[] = [];
      for (let n = 0; n < 200; n++) heard.push(Number((await socket.next()).split(':')[0]));
      expect(heard).toEqual(Array.from({ length: 200 }, (_, n) => n));
      socket.socket.close(1000, 'done');
    });

    more?.(() => server);
  });
}
