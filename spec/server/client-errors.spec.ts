// Answers a client causes are not server errors, over real sockets: a client that leaves in the middle of its body is
// logged at DEBUG and counted as status 499 (client closed), never as an ERROR with a stack and a 500; a header value
// with CR/LF that the application set answers the 500 problem (never `500 Found` and a text body) with one log line
// naming the header and Class#method, on HTTP/1.1, HTTP/2 and in process.
import { readdirSync } from 'node:fs';
import { connect as http2Connect } from 'node:http2';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import {
  Body,
  Consumes,
  GET,
  FileUpload,
  POST,
  Path,
  RestForm,
  RestResponse,
  WebApplicationException,
  logging,
  type LogRecord,
  type RestApp,
  type RunningServer,
} from '../../lib';
import { buildApp, call } from '../support/app';
import { tempDir } from '../support/temp-dir';
import { until, within } from '../support/until';

@Path('edge')
class EdgeResource {
  @POST
  @Path('json')
  @Consumes('application/json')
  json(@Body() body: { name: string }): { name: string } {
    return body;
  }

  @POST
  @Path('upload')
  @Consumes('multipart/form-data')
  upload(@RestForm('file') file: FileUpload): number {
    return file.size;
  }

  @GET
  @Path('crlf')
  crlf(): RestResponse<string> {
    return RestResponse.ResponseBuilder.ok('moved')
      .status(302)
      .header('location', 'https://example.com/\r\nx-injected: 1')
      .build();
  }

  @GET
  @Path('status-99')
  status99(): RestResponse<string> {
    return RestResponse.status(99, 'too low');
  }

  @GET
  @Path('status-700')
  status700(): string {
    throw new WebApplicationException('too high', 700);
  }
}

/** Log records from now until the returned function is called, which gives them. */
function recordLogs(): () => LogRecord[] {
  const records: LogRecord[] = [];
  const previous = logging.setSink((record) => records.push(record));
  return () => (logging.setSink(previous), records);
}

/**
 * Sends `head` and part of a body on a raw connection, then cuts it, as a client that goes away: once the server has
 * the request (and `ready` says so, when given), not after a guess; cut before, it would be no request at all.
 */
async function abortMidBody(server: RunningServer, head: string, part: string, ready?: () => true | undefined) {
  const received = new Promise((resolve) => (server.server as Server).once('request', resolve));
  const socket: Socket = connect(server.port, '127.0.0.1');
  const failed = new Promise<never>((_resolve, reject) => socket.on('error', reject));
  await Promise.race([
    within(new Promise((resolve) => socket.write(head + part, resolve)), 'the head and part to be written'),
    failed,
  ]);
  await within(Promise.race([received, failed]), 'the server to take the request');
  if (ready) await until(ready, 'the server to have read the part');
  socket.destroy();
}

/** The request counts by status in `/q/metrics`. */
async function countsByStatus(server: RunningServer, uri: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/q/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const [, status, count] of text.matchAll(
    new RegExp(`http_server_requests_seconds_count\\{method="POST",uri="${uri}",status="(\\d+)"[^}]*\\} (\\d+)`, 'g'),
  ))
    counts[status!] = Number(count);
  return counts;
}

/** One raw HTTP/1.1 exchange: everything the server sent until it closed (or 15 s passed: 2 s was a guess under load). */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => (socket.destroy(), resolve(text)), 15_000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => (clearTimeout(timer), resolve(text)));
    socket.on('error', reject);
    socket.write(request);
  });
}

describe('a client that leaves in the middle of its body', () => {
  const uploads = tempDir('client-errors');
  let app: RestApp;
  let server: RunningServer;
  beforeAll(async () => {
    app = buildApp([EdgeResource], {
      'framework.metrics.enabled': true,
      'framework.http.body.uploads-directory': uploads,
    });
    server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  });
  afterAll(() => server.close());

  it('is no ERROR and no 500: a JSON body cut short is logged at DEBUG and counted as 499', async () => {
    logging.setCategoryLevel('rxrest', 'DEBUG');
    const logs = recordLogs();
    try {
      await abortMidBody(
        server,
        'POST /edge/json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
        '{"name":',
      );
      await until(async () => (await countsByStatus(server, '/edge/json'))['499'], 'the request to be counted');
    } finally {
      logging.setCategoryLevel('rxrest', undefined);
    }
    const records = logs();
    expect(records.filter((record) => record.level === 'ERROR' || record.level === 'WARN')).toEqual([]);
    expect(records.filter((record) => /client closed/i.test(record.message)).map((record) => record.level)).toEqual([
      'DEBUG',
    ]);
    expect(await countsByStatus(server, '/edge/json')).toEqual({ '499': 1 });
  });

  it('is no ERROR and no 4xx or 5xx for a multipart upload cut short either', async () => {
    const logs = recordLogs();
    await abortMidBody(
      server,
      'POST /edge/upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n',
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n' + 'x'.repeat(5000),
      // The partial file exists before the client leaves: its removal below is then something to see.
      () => (readdirSync(uploads).length === 1 ? true : undefined),
    );
    await until(async () => (await countsByStatus(server, '/edge/upload'))['499'], 'the upload to be counted');
    expect(logs().filter((record) => record.level === 'ERROR' || record.level === 'WARN')).toEqual([]);
    expect(await countsByStatus(server, '/edge/upload')).toEqual({ '499': 1 });
    // The part written before the client left is not kept.
    await until(() => (readdirSync(uploads).length === 0 ? true : undefined), 'the partial upload to be removed');
  });
});

describe('a response header value with CR or LF', () => {
  const where = 'EdgeResource#crlf';

  function expectOneLine(records: LogRecord[]): void {
    const errors = records.filter((record) => record.level === 'ERROR');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('"location"');
    expect(errors[0]!.message).toContain(where);
    expect(errors[0]!.detail).toBeUndefined();
  }

  it('answers the 500 problem on HTTP/1.1, with one log line naming the header and the method', async () => {
    const server = await buildApp([EdgeResource]).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const logs = recordLogs();
    let text: string;
    try {
      text = await exchange(server.port, 'GET /edge/crlf HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    } finally {
      await server.close();
    }
    expectOneLine(logs());
    const [head, body] = text.split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 500 Internal Server Error');
    expect(head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
    expect(head).not.toMatch(/x-injected|location/i);
    expect(JSON.parse(body!)).toMatchObject({ status: 500, code: 'RXREST_INTERNAL_ERROR' });
  });

  it('answers the 500 problem on HTTP/2 and in process alike', async () => {
    const server = await buildApp([EdgeResource], { 'framework.http.h2c': true }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    const logs = recordLogs();
    const session = http2Connect(server.url);
    try {
      const answer = await within(
        new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
          const stream = session.request({ ':path': '/edge/crlf' });
          let body = '';
          let head: Record<string, unknown> = {};
          stream.setEncoding('utf8');
          stream.on('response', (headers) => (head = headers));
          stream.on('data', (chunk: string) => (body += chunk));
          stream.on('end', () => resolve({ status: Number(head[':status']), body, headers: head }));
          stream.on('error', reject);
        }),
        'the answer over HTTP/2',
      );
      expect(answer.status).toBe(500);
      expect(answer.headers.location).toBeUndefined();
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'RXREST_INTERNAL_ERROR' });
    } finally {
      session.close();
      await server.close();
    }
    expectOneLine(logs());
    const inProcess = recordLogs();
    const answer = await call(buildApp([EdgeResource]), '/edge/crlf');
    expectOneLine(inProcess());
    expect(answer.status).toBe(500);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.json()).toMatchObject({ code: 'RXREST_INTERNAL_ERROR' });
  });
});

describe('a response status that is no HTTP status', () => {
  function expectOneLine(records: LogRecord[], where: string, status: number): void {
    const errors = records.filter((record) => record.level === 'ERROR');
    expect(errors.map((record) => record.message)).toEqual([
      `Response status ${status} set by ${where} is not an HTTP status (an integer from 200 to 599): answered 500 instead`,
    ]);
  }

  it('answers the 500 problem in process, where the Web Response refused it and fetch() rejected', async () => {
    const app = buildApp([EdgeResource]);
    for (const [path, where, status] of [
      ['/edge/status-99', 'EdgeResource#status99', 99],
      ['/edge/status-700', 'EdgeResource#status700', 700],
    ] as const) {
      const logs = recordLogs();
      const answer = await call(app, path);
      expectOneLine(logs(), where, status);
      expect(answer.status).toBe(500);
      expect(await answer.json()).toMatchObject({ code: 'RXREST_INTERNAL_ERROR' });
    }
  });

  it('answers the 500 problem on HTTP/1.1, where Node sent a status line of 700', async () => {
    const server = await buildApp([EdgeResource]).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const logs = recordLogs();
    let text: string;
    try {
      text = await exchange(
        server.port,
        'GET /edge/status-700 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      );
    } finally {
      await server.close();
    }
    expectOneLine(logs(), 'EdgeResource#status700', 700);
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 500 Internal Server Error');
  });
});
