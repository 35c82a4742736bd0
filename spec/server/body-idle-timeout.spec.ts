// A request body that stops arriving, over real sockets: no byte for framework.http.body-idle-timeout ends the
// request with a 408 problem and the connection (HTTP/1.1) or stream (HTTP/2) after it, and a multipart upload keeps
// no partial file; a body that arrives slowly but steadily, and a body nobody reads, are left alone.
import { interval, map, type Observable } from 'rxjs';
import { readdirSync } from 'node:fs';
import { connect as http2Connect } from 'node:http2';
import { connect, type Socket } from 'node:net';
import {
  Body,
  Consumes,
  Context,
  FileUpload,
  POST,
  Path,
  Produces,
  RestForm,
  resolveConfig,
  type RunningServer,
} from '../../lib';
import { buildApp } from '../support/app';
import { listingOnce, tempDir } from '../support/temp-dir';
import { bounded, within } from '../support/until';

@Path('bodies')
class BodyResource {
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

  /** Reads the body only after a while: every byte must still be there. */
  @POST
  @Path('late')
  @Consumes('text/plain')
  async late(@Context() request: Request): Promise<number> {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return (await request.arrayBuffer()).byteLength;
  }

  /** Streams without reading its body: it may outlast the request timeout. */
  @POST
  @Path('ticks')
  @Produces('text/event-stream')
  ticks(): Observable<number> {
    return interval(100).pipe(map((tick) => tick));
  }

  @POST
  @Path('unread')
  unread(): Promise<string> {
    return new Promise((resolve) => setTimeout(() => resolve('answered without the body'), 600));
  }
}

interface Exchange {
  readonly socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  readonly closed: Promise<string>;
  /** Milliseconds from the start to the first byte of the answer. */
  readonly answeredAfter: Promise<number>;
}

/** Opens a connection and sends `text`; the caller may write more, or nothing. */
function open(port: number, text: string): Exchange {
  const socket = connect(port, '127.0.0.1');
  const started = Date.now();
  let received = '';
  let answered: (ms: number) => void = () => undefined;
  const answeredAfter = new Promise<number>((resolve) => (answered = resolve));
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    if (received === '') answered(Date.now() - started);
    received += chunk;
  });
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  socket.write(text);
  return {
    socket,
    closed: bounded(closed, 'the connection to close'),
    answeredAfter: bounded(answeredAfter, 'an answer'),
  };
}

const statusLine = (text: string) => text.split('\r\n')[0];
const bodyOf = (text: string) =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { code: string; status: number };

describe('framework.http.body-idle-timeout', () => {
  const uploads = tempDir('idle-body');
  let server: RunningServer;
  beforeAll(async () => {
    server = await buildApp([BodyResource], {
      'framework.http.body-idle-timeout': '300ms',
      'framework.http.body.uploads-directory': uploads,
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  });
  afterAll(() => server.close());

  it('ends an upload whose body stops with 408, closes the connection, and removes the partial file', async () => {
    const exchange = open(
      server.port,
      'POST /bodies/upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n' +
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n' +
        'x'.repeat(200_000),
    );
    const text = await exchange.closed;
    expect(statusLine(text)).toBe('HTTP/1.1 408 Request Timeout');
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(text)).toMatchObject({ status: 408, code: 'RXREST_BODY_TIMEOUT' });
    // Without the idle timeout it would be answered after the request timeout (300 s): 8 s leaves a loaded machine room.
    expect(await exchange.answeredAfter).toBeLessThan(8000);
    // The partial file is removed once the upload has failed, which may come after the connection's close.
    expect(await listingOnce(uploads)).toEqual([]);
  });

  it('ends a JSON body that stops with 408', async () => {
    const exchange = open(
      server.port,
      'POST /bodies/json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"name":',
    );
    const text = await exchange.closed;
    expect(statusLine(text)).toBe('HTTP/1.1 408 Request Timeout');
    expect(bodyOf(text)).toMatchObject({ code: 'RXREST_BODY_TIMEOUT' });
  });

  it('leaves alone a body that arrives slowly but never stops for the timeout', async () => {
    // A timeout of its own, 10 times the gap between bytes: with 300 ms, a pause of 200 ms of a loaded machine (this
    // process sends the bytes and sweeps the bodies) could make a gap look like the client's.
    const steady = await buildApp([BodyResource], { 'framework.http.body-idle-timeout': '1s' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      const json = '{"name":"slow but steady"}';
      const exchange = open(
        steady.port,
        `POST /bodies/json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n`,
      );
      // One byte every 100 ms: 2.6 s in all, far past the 1 s timeout, never idle for it.
      for (const char of json) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        exchange.socket.write(char);
      }
      const text = await exchange.closed;
      expect(statusLine(text)).toBe('HTTP/1.1 200 OK');
      expect(text).toContain('slow but steady');
    } finally {
      await steady.close();
    }
  }, 15_000);

  it('leaves alone a body nobody reads: the method answers, the connection then closes', async () => {
    const exchange = open(
      server.port,
      'POST /bodies/unread HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\nab',
    );
    const text = await exchange.closed;
    expect(statusLine(text)).toBe('HTTP/1.1 200 OK');
    expect(text).toContain('answered without the body');
  });

  it('ends a stalled body on HTTP/2 with 408 and resets only its stream', async () => {
    const h2 = await buildApp([BodyResource], {
      'framework.http.h2c': true,
      'framework.http.body-idle-timeout': '300ms',
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const session = http2Connect(h2.url);
    try {
      const answer = await within(
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const stream = session.request({
            ':method': 'POST',
            ':path': '/bodies/json',
            'content-type': 'application/json',
            'content-length': '50',
          });
          stream.write('{"name":');
          let status = 0;
          let body = '';
          stream.setEncoding('utf8');
          stream.on('response', (headers) => (status = Number(headers[':status'])));
          stream.on('data', (chunk: string) => (body += chunk));
          stream.on('close', () => resolve({ status, body }));
          stream.on('error', reject);
        }),
        'the stalled stream to end',
      );
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'RXREST_BODY_TIMEOUT' });
      // The session goes on serving.
      const again = await within(
        new Promise<number>((resolve) => {
          const stream = session.request({
            ':method': 'POST',
            ':path': '/bodies/json',
            'content-type': 'application/json',
          });
          stream.on('response', (headers) => resolve(Number(headers[':status'])));
          stream.resume();
          stream.end('{"name":"next"}');
        }),
        "the next stream's answer",
      );
      expect(again).toBe(200);
    } finally {
      session.close();
      await h2.close();
    }
  });

  it('ends an HTTP/2 body still trickling in after framework.http.request-timeout with 408, as Node does HTTP/1.1', async () => {
    // Node bounds no HTTP/2 request: a byte within every idle timeout held a stream for as long as the client liked.
    const h2 = await buildApp([BodyResource], {
      'framework.http.h2c': true,
      'framework.http.body-idle-timeout': '300ms',
      'framework.http.request-timeout': '1s',
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const session = http2Connect(h2.url);
    const stream = session.request({ ':method': 'POST', ':path': '/bodies/json', 'content-type': 'application/json' });
    const trickle = setInterval(() => stream.writable && stream.write(' '), 100);
    try {
      const started = Date.now();
      const answer = await within(
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          let status = 0;
          let body = '';
          stream.setEncoding('utf8');
          stream.on('response', (headers) => (status = Number(headers[':status'])));
          stream.on('data', (chunk: string) => (body += chunk));
          stream.on('close', () => resolve({ status, body }));
          stream.on('error', reject);
          stream.write('{"name":');
        }),
        'the trickling stream to end',
        5_000,
      );
      expect([answer.status, (JSON.parse(answer.body) as { code: string }).code]).toEqual([408, 'RXREST_BODY_TIMEOUT']);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      clearInterval(trickle);
      session.close();
      await h2.close();
    }
  });

  it('keeps serving an HTTP/2 stream that outlasts framework.http.request-timeout without reading its body', async () => {
    // Ending a request nobody reads raised an error nothing listened for: the process died at the timeout.
    const h2 = await buildApp([BodyResource], {
      'framework.http.h2c': true,
      'framework.http.body-idle-timeout': '0',
      'framework.http.request-timeout': '500ms',
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const session = http2Connect(h2.url);
    try {
      const streams = [
        { ended: true, ticks: 0 },
        { ended: false, ticks: 0 },
      ].map((state) => {
        const stream = session.request({ ':method': 'POST', ':path': '/bodies/ticks', accept: 'text/event-stream' });
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (state.ticks += chunk.split('data:').length - 1));
        stream.on('error', () => undefined);
        // An empty body sent whole, and one whose end never comes.
        if (state.ended) stream.end();
        return { state, stream };
      });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const before = streams.map(({ state }) => state.ticks);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Both streams still flow past four timeouts, and the server answers a new request.
      streams.forEach(({ state }, i) => expect(state.ticks).toBeGreaterThan(before[i]!));
      const again = await within(
        new Promise<string>((resolve, reject) => {
          const stream = session.request({
            ':method': 'POST',
            ':path': '/bodies/json',
            'content-type': 'application/json',
          });
          let body = '';
          stream.setEncoding('utf8');
          stream.on('data', (chunk: string) => (body += chunk));
          stream.on('end', () => resolve(body));
          stream.on('error', reject);
          stream.end('{"name":"again"}');
        }),
        'an answer to a new request',
      );
      expect(JSON.parse(again)).toEqual({ name: 'again' });
      for (const { stream } of streams) stream.close();
    } finally {
      session.close();
      await h2.close();
    }
  });

  it('hands every byte of an HTTP/2 body to a reader that starts late (watching it takes nothing from it)', async () => {
    const h2 = await buildApp([BodyResource], {
      'framework.http.h2c': true,
      'framework.http.body-idle-timeout': '300ms',
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const session = http2Connect(h2.url);
    try {
      const length = await within(
        new Promise<string>((resolve, reject) => {
          const stream = session.request({ ':method': 'POST', ':path': '/bodies/late', 'content-type': 'text/plain' });
          let body = '';
          stream.setEncoding('utf8');
          stream.on('data', (chunk: string) => (body += chunk));
          stream.on('end', () => resolve(body));
          stream.on('error', reject);
          stream.end(Buffer.alloc(40_000, 97));
        }),
        "the late reader's answer",
      );
      expect(length).toBe('40000');
    } finally {
      session.close();
      await h2.close();
    }
  });

  it('defaults to 30 s, and 0 turns it off', () => {
    expect(resolveConfig().get('framework.http.body-idle-timeout')).toBe(30_000);
    expect(
      resolveConfig({ overrides: { 'framework.http.body-idle-timeout': '0' } }).get('framework.http.body-idle-timeout'),
    ).toBe(0);
  });
});
