// Every limit answers over a real socket, whether the client sent the whole body at once or is still
// writing a large one slowly when the limit trips: `app.fetch` in process hid that a limit destroyed the
// socket and the answer reached nobody.
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  Body,
  Consumes,
  GET,
  GZIP,
  MultipartFormDataInput,
  Path,
  POST,
  Produces,
  type Multi,
  type RunningServer,
} from '../../lib';
import { buildApp } from '../support/app';
import { tempDir } from '../support/temp-dir';
import { within } from '../support/until';

@Path('limits')
class LimitsResource {
  @POST
  @Path('json')
  @Consumes('application/json')
  @Produces('application/json')
  json(body: Record<string, unknown>): { keys: number } {
    return { keys: Object.keys(body).length };
  }

  @POST
  @Path('form')
  @Consumes('multipart/form-data')
  @Produces('application/json')
  form(input: MultipartFormDataInput): unknown {
    return input.summaries();
  }

  @GET
  @Path('ping')
  @Produces('text/plain')
  ping(): string {
    return 'pong';
  }

  @POST
  @Path('gzip')
  @GZIP
  @Consumes('text/plain')
  @Produces('text/plain')
  gzip(body: string): string {
    return String(body.length);
  }

  /** Iterated until a line fails: the iterator that threw is never returned, so the body is left to the server. */
  @POST
  @Path('lines')
  @Consumes('application/x-ndjson')
  @Produces('application/json')
  async lines(@Body({ stream: true }) lines: Multi<{ n: number }>): Promise<{ lines: number }> {
    let count = 0;
    for await (const line of lines) count += line.n;
    return { lines: count };
  }
}

const uploads = tempDir('limits');
const LIMIT = 64 * 1024;
let server: RunningServer;
beforeAll(async () => {
  const app = buildApp([LimitsResource], {
    'framework.http.body.uploads-directory': uploads,
    'framework.http.limits.max-body-size': '64K',
    'framework.http.limits.max-form-attribute-size': '2048',
    'framework.http.limits.max-multipart-file-size': '32K',
    'framework.http.limits.max-parts': 5,
    'framework.http.limits.max-fields': 3,
    'framework.http.limits.max-header-size': '1K',
    'framework.legacy.gzip.enabled': true,
    'framework.legacy.gzip.max-input': '64K',
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Reads one HTTP/1.1 response with a Content-Length from `socket`. */
function readAnswer(socket: Socket): Promise<Answer> {
  return within(
    new Promise((resolve, reject) => {
      let buffer = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length < end + 4 + length) return;
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve({
          status: Number(statusLine.split(' ')[1]),
          headers,
          body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
        });
      };
      const onClose = () =>
        reject(
          new Error(
            `connection closed after ${buffer.length} bytes: ${JSON.stringify(buffer.toString('latin1').slice(0, 200))}`,
          ),
        );
      socket.on('data', onData);
      socket.once('close', onClose);
    }),
    'an answer',
  );
}

function open(): Promise<Socket> {
  return within(
    new Promise((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    }),
    'the connection',
  );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request whose body is `body` then, when `slowTail` is given, that many more bytes written 16 KB every 5 ms until the answer is in. */
interface Sent {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly chunked?: boolean;
}

/** Sends `request` and reads the answer; the socket is returned open (unless the server closed it). */
async function send(
  request: Sent,
  slowTail: Buffer | undefined,
): Promise<{ answer: Answer; socket: Socket; closed: Promise<void> }> {
  const socket = await open();
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const total = request.body.length + (slowTail?.length ?? 0);
  const framing = request.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(total) };
  const head = Object.entries({ host: 'localhost', ...request.headers, ...framing })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const chunk = (bytes: Buffer) =>
    request.chunked
      ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')])
      : bytes;
  const answered = readAnswer(socket);
  socket.write(`POST ${request.path} HTTP/1.1\r\n${head}\r\n`);
  socket.write(chunk(request.body));
  if (!slowTail) {
    if (request.chunked) socket.write('0\r\n\r\n');
    return { answer: await answered, socket, closed };
  }
  let done = false;
  void answered.then(
    () => (done = true),
    () => (done = true),
  );
  for (let offset = 0; offset < slowTail.length && !done && !socket.destroyed; offset += 16384) {
    socket.write(chunk(slowTail.subarray(offset, offset + 16384)));
    await pause(5);
  }
  return { answer: await answered, socket, closed };
}

const BOUNDARY = 'limits-boundary';
const partOf = (disposition: string, content: string | Buffer, extraHeaders = '') =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\n${extraHeaders}\r\n`),
    Buffer.from(content),
    Buffer.from('\r\n'),
  ]);
const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
const formHeaders = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
// What a slow client goes on sending after the part that trips the limit: one more file part, 1 MB, unfinished.
const slowFileTail = Buffer.concat([partOf('name="more"; filename="more.bin"', ''), Buffer.alloc(1024 * 1024, 'm')]);

interface LimitCase {
  readonly name: string;
  readonly request: Sent;
  readonly status: number;
  readonly code: string;
  /** The bytes a slow client still sends after the request's body; none where the body is the point (malformed, truncated). */
  readonly slowTail?: Buffer;
}

const CASES: LimitCase[] = [
  {
    name: 'a JSON body past max-body-size, chunked',
    request: {
      path: '/limits/json',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(`{"a":"${'x'.repeat(LIMIT)}"}`),
      chunked: true,
    },
    status: 413,
    code: 'RXREST_BODY_TOO_LARGE',
    slowTail: Buffer.alloc(1024 * 1024, ' '),
  },
  {
    name: 'a JSON body past max-body-size by its Content-Length',
    request: {
      path: '/limits/json',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(`{"a":"${'x'.repeat(LIMIT)}"}`),
    },
    status: 413,
    code: 'RXREST_BODY_TOO_LARGE',
    slowTail: Buffer.alloc(1024 * 1024, ' '),
  },
  {
    name: 'a text part past max-form-attribute-size',
    request: { path: '/limits/form', headers: formHeaders, body: form(partOf('name="description"', 'd'.repeat(3000))) },
    status: 413,
    code: 'RXREST_PART_TOO_LARGE',
    slowTail: slowFileTail,
  },
  {
    name: 'a file part past max-multipart-file-size',
    request: {
      path: '/limits/form',
      headers: formHeaders,
      body: form(partOf('name="file"; filename="big.bin"', Buffer.alloc(40 * 1024, 'f'))),
    },
    status: 413,
    code: 'RXREST_PART_TOO_LARGE',
    slowTail: slowFileTail,
  },
  {
    name: 'more parts than max-parts',
    request: {
      path: '/limits/form',
      headers: formHeaders,
      body: form(...Array.from({ length: 6 }, (_, k) => partOf(`name="f${k}"; filename="f${k}.txt"`, 'x'))),
    },
    status: 413,
    code: 'RXREST_PART_TOO_LARGE',
    slowTail: slowFileTail,
  },
  {
    name: 'more fields than max-fields',
    request: {
      path: '/limits/form',
      headers: formHeaders,
      body: form(...Array.from({ length: 4 }, (_, k) => partOf(`name="f${k}"`, 'x'))),
    },
    status: 413,
    code: 'RXREST_PART_TOO_LARGE',
    slowTail: slowFileTail,
  },
  {
    name: 'a part header block past max-header-size',
    request: {
      path: '/limits/form',
      headers: formHeaders,
      body: form(partOf('name="h"', 'x', `X-Long: ${'h'.repeat(2048)}\r\n`)),
    },
    status: 413,
    code: 'RXREST_PART_TOO_LARGE',
    slowTail: slowFileTail,
  },
  {
    name: 'a gzip body that inflates past framework.legacy.gzip.max-input',
    request: {
      path: '/limits/gzip',
      headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(4 * LIMIT, 'z')),
    },
    status: 413,
    code: 'RXREST_BODY_TOO_LARGE',
    slowTail: Buffer.alloc(1024 * 1024, 0),
  },
  {
    name: 'a malformed multipart body',
    request: { path: '/limits/form', headers: formHeaders, body: Buffer.from('this is not multipart at all') },
    status: 400,
    code: 'RXREST_MALFORMED_MULTIPART',
  },
  {
    name: 'a truncated multipart body',
    request: {
      path: '/limits/form',
      headers: formHeaders,
      body: partOf('name="file"; filename="cut.bin"', 'abc').subarray(0, 80),
    },
    status: 400,
    code: 'RXREST_MALFORMED_MULTIPART',
  },
];

const GOOD = `POST /limits/json HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 7\r\n\r\n{"a":1}`;

describe('a limit over a real socket', () => {
  afterEach(() => {
    expect(readdirSync(uploads)).toEqual([]);
  });

  describe.each(CASES)('$name', ({ request, status, code, slowTail }) => {
    it(`answers ${status} ${code} when the whole body was sent before reading, and the connection serves the next request or is closed after the answer`, async () => {
      const { answer, socket, closed } = await send(request, undefined);
      expect([answer.status, (JSON.parse(answer.body) as { code: string }).code]).toEqual([status, code]);
      if (answer.headers.connection?.toLowerCase() === 'close') {
        await closed;
      } else {
        const next = readAnswer(socket);
        socket.write(GOOD);
        expect(await next).toMatchObject({ status: 200, body: '{"keys":1}' });
        socket.destroy();
      }
    });

    if (slowTail) {
      it(`answers ${status} ${code} to a client still writing a large body slowly, then closes the connection`, async () => {
        const { answer, socket, closed } = await send(request, slowTail);
        expect([answer.status, (JSON.parse(answer.body) as { code: string }).code]).toEqual([status, code]);
        expect(answer.headers.connection?.toLowerCase()).toBe('close');
        socket.end();
        await closed;
      });
    }
  });
});

describe('requests that keep to the limits', () => {
  it('keep the connection alive: answers without a body, answered in the tick they arrive, and small bodies', async () => {
    const socket = await open();
    for (const request of [
      'GET /limits/ping HTTP/1.1\r\nhost: localhost\r\n\r\n',
      GOOD,
      'GET /limits/ping HTTP/1.1\r\nhost: localhost\r\n\r\n',
    ]) {
      const answer = readAnswer(socket);
      socket.write(request);
      const { status, headers } = await answer;
      expect([status, headers.connection]).toEqual([200, 'keep-alive']);
    }
    socket.destroy();
  });
});

describe('a body its reader stopped reading on a bad item', () => {
  const bad = '{"n":1}\n{"n":1,"__proto__":{"p":1}}\n';
  // The rest of the body, within the limits, sent after the answer to the bad line.
  const rest = `${'{"n":1}\n'.repeat(4096)}`;
  // The answer's drain waited for the body's `end`, which the abandoned reader withheld, and cut the connection 500 ms
  // later whatever it carried by then: a client that reused it saw "other side closed" (undici) on its next request.
  it.each([
    ['sent whole', ''],
    ['still sending the rest after the answer', rest],
  ])('leaves the connection to the next requests, past the drain time: a body %s', async (_, tail) => {
    const socket = await open();
    socket.on('error', () => undefined);
    let closedAt: number | undefined;
    socket.once('end', () => (closedAt = Date.now()));
    const refused = readAnswer(socket);
    const length = bad.length + tail.length;
    socket.write(
      `POST /limits/lines HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/x-ndjson\r\ncontent-length: ${length}\r\n\r\n${bad}`,
    );
    const answer = await refused;
    const answeredAt = Date.now();
    if (tail) socket.write(tail);
    expect([answer.status, (JSON.parse(answer.body) as { code: string }).code, answer.headers.connection]).toEqual([
      400,
      'RXREST_FORBIDDEN_PROPERTY',
      'keep-alive',
    ]);
    await pause(800);
    try {
      expect(closedAt === undefined ? 'open' : `closed ${closedAt - answeredAt} ms after the 400`).toBe('open');
      const next = readAnswer(socket);
      socket.write('GET /limits/ping HTTP/1.1\r\nhost: localhost\r\n\r\n');
      expect((await next).status).toBe(200);
    } finally {
      socket.destroy();
    }
  });
});

describe('a client waiting for 100 Continue', () => {
  /** Sends a head asking for 100 Continue and resolves with the first line the server writes back. */
  async function firstLine(length: number): Promise<{ line: string; socket: Socket }> {
    const socket = await open();
    socket.on('error', () => undefined);
    const line = within(
      new Promise<string>((resolve) =>
        socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0])),
      ),
      'the status line',
    );
    socket.write(
      'POST /limits/json HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n' +
        `expect: 100-continue\r\ncontent-length: ${length}\r\n\r\n`,
    );
    return { line: await line, socket };
  }

  it('is answered 413 at once for a Content-Length past the limit, never asked for the body', async () => {
    const { line, socket } = await firstLine(LIMIT + 1);
    socket.destroy();
    expect(line).toBe('HTTP/1.1 413 Payload Too Large');
  });

  it('is asked for a body within the limit, then answered', async () => {
    const body = '{"a":1}';
    const { line, socket } = await firstLine(body.length);
    expect(line).toBe('HTTP/1.1 100 Continue');
    const answered = readAnswer(socket);
    socket.write(body);
    const answer = await answered;
    socket.destroy();
    expect([answer.status, answer.body]).toEqual([200, '{"keys":1}']);
  });
});
