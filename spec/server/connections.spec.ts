// HTTP/2 connections that hold nothing, over real sockets: a session with no open stream is an idle keep-alive
// connection, closed with GOAWAY after framework.http.keep-alive-timeout — one that never sent a byte, one that sent only
// the preface, one whose requests are answered — while a session holding a silent stream stays open.
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { NEVER } from 'rxjs';
import { GET, Path, Produces, RestApplication, multi, resolveConfig, type Multi, type RunningServer } from '../../lib';
import { selfSignedCertificate } from '../support/certificate';
import { tempDir } from '../support/temp-dir';
import { until, within } from '../support/until';

@Path('idle')
class IdleResource {
  @GET
  hello(): string {
    return 'hello';
  }

  /** A stream that sends nothing for as long as it is open. */
  @GET
  @Path('silent')
  @Produces('text/event-stream')
  silent(): Multi<string> {
    return multi(NEVER);
  }
}

const PREFACE = Buffer.concat([
  Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
  Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]),
]);

function listen(overrides: Record<string, string | number | boolean>): Promise<RunningServer> {
  const config = resolveConfig({ overrides: { 'framework.http.keep-alive-timeout': '500ms', ...overrides } });
  return RestApplication.build({ classes: [IdleResource], config }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
}

/** The connections the server holds. */
function connections(server: RunningServer): Promise<number> {
  return new Promise((resolve, reject) =>
    server.server!.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

/** A raw connection the server's closing is seen on. */
function rawConnection(server: RunningServer, first?: Buffer): Promise<{ socket: Socket; closed: () => boolean }> {
  return within(
    new Promise((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      let closed = false;
      socket.on('data', () => undefined);
      socket.once('error', reject);
      socket.once('close', () => (closed = true));
      socket.once('connect', () => {
        if (first) socket.write(first);
        resolve({ socket, closed: () => closed });
      });
    }),
    'the raw connection',
  );
}

function get(session: ClientHttp2Session, path: string): Promise<string> {
  return within(
    new Promise((resolve, reject) => {
      const stream = session.request({ ':path': path });
      let body = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (body += chunk));
      stream.once('end', () => resolve(body));
      stream.once('error', reject);
    }),
    'the answer over HTTP/2',
  );
}

const certificates = tempDir('connections');

/** The HTTP/2 TLS port alone (h2, HTTP/1.1 beside it), with a certificate of its own. */
function listenTls(): ReturnType<typeof listen> {
  const { certificate, key } = selfSignedCertificate(certificates);
  return listen({
    'framework.http.ssl.certificate.file': certificate,
    'framework.http.ssl.certificate.key-file': key,
    'framework.http.ssl-port': 0,
    'framework.http.insecure-requests': 'disabled',
  });
}

describe('idle HTTP/2 sessions', () => {
  it('are closed within two keep-alive timeouts when a header block never ends (slowloris over HTTP/2)', async () => {
    // A GOAWAY went out, but the session waited for good for the rest of the block: nghttp2 has no timeout for it.
    const server = await listen({ 'framework.http.h2c': true });
    const headers = Buffer.from([0, 0, 4, 1, 0, 0, 0, 0, 1, 0x82, 0x86, 0x84, 0x41]);
    const unfinished = await rawConnection(server, Buffer.concat([PREFACE, headers]));
    try {
      const started = Date.now();
      await until(() => (unfinished.closed() ? true : undefined), 'the connection closed', 5_000);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      unfinished.socket.destroy();
      await within(server.close(), 'the server to close', 5_000);
    }
  });

  it('are closed after framework.http.keep-alive-timeout on h2c: silent from the first byte, or after the preface', async () => {
    const server = await listen({ 'framework.http.h2c': true });
    const silent = await rawConnection(server);
    const preface = await rawConnection(server, PREFACE);
    try {
      const started = Date.now();
      await until(() => (silent.closed() && preface.closed() ? true : undefined), 'both connections closed', 10_000);
      expect(Date.now() - started).toBeLessThan(5_000);
      await until(async () => ((await connections(server)) === 0 ? true : undefined), 'the server to let go');
    } finally {
      silent.socket.destroy();
      preface.socket.destroy();
      await server.close();
    }
  });

  it('get a GOAWAY once their last stream ended on the TLS port, and a session holding a silent stream stays', async () => {
    const server = await listenTls();
    const answered = http2Connect(server.url, { rejectUnauthorized: false });
    const streaming = http2Connect(server.url, { rejectUnauthorized: false });
    try {
      let goaway = false;
      answered.once('goaway', () => (goaway = true));
      expect(await get(answered, '/idle')).toBe('hello');
      const silent = streaming.request({ ':path': '/idle/silent' });
      silent.on('data', () => undefined);
      const head = await within(
        new Promise<number>((resolve) => silent.once('response', (h) => resolve(Number(h[':status'])))),
        'the answer head',
      );
      expect(head).toBe(200);
      await until(() => (goaway ? true : undefined), 'the GOAWAY of the answered session', 10_000);
      await until(() => (answered.closed ? true : undefined), 'the answered session closed');
      // Three keep-alive timeouts on, the session of the silent stream carries it still, and another request.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(silent.closed).toBe(false);
      expect(await get(streaming, '/idle')).toBe('hello');
      silent.close();
    } finally {
      answered.destroy();
      streaming.destroy();
      await server.close();
    }
  });

  it('leave HTTP/1.1 keep-alive connections of the HTTP/2 TLS port to framework.http.keep-alive-timeout too', async () => {
    const server = await listenTls();
    const socket = tlsConnect({
      port: server.port,
      host: '127.0.0.1',
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    let text = '';
    let closed = false;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('close', () => (closed = true));
    try {
      socket.once('secureConnect', () => socket.write('GET /idle HTTP/1.1\r\nHost: localhost\r\n\r\n'));
      await until(() => (text.endsWith('hello') ? true : undefined), 'the answer over HTTP/1.1');
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      await until(() => (closed ? true : undefined), 'the idle connection closed', 5_000);
    } finally {
      socket.destroy();
      await server.close();
    }
  });
});

/**
 * HEADERS (GET /idle, ending the stream) then RST_STREAM (CANCEL) at once, `count` times, on a connection of its own;
 * resolves with the code of the server's GOAWAY, or `left` when the client leaves as soon as it has written them.
 */
function rapidReset(port: number, count: number, leave: boolean): Promise<number | 'left'> {
  const frame = (type: number, flags: number, stream: number, payload: Buffer) => {
    const head = Buffer.alloc(9);
    head.writeUIntBE(payload.length, 0, 3);
    head.writeUInt8(type, 3);
    head.writeUInt8(flags, 4);
    head.writeUInt32BE(stream, 5);
    return Buffer.concat([head, payload]);
  };
  // :method GET and :scheme https from the static table; :path and :authority literal, not indexed.
  const headers = Buffer.concat([
    Buffer.from([0x82, 0x87, 0x04, 5]),
    Buffer.from('/idle'),
    Buffer.from([0x01, 9]),
    Buffer.from('127.0.0.1'),
  ]);
  const cancel = Buffer.from([0, 0, 0, 8]);
  const frames = [PREFACE];
  for (let n = 0; n < count; n++) frames.push(frame(1, 0x5, 2 * n + 1, headers), frame(3, 0, 2 * n + 1, cancel));
  return within(
    new Promise((resolve, reject) => {
      const socket = tlsConnect({ port, host: '127.0.0.1', ALPNProtocols: ['h2'], rejectUnauthorized: false }, () =>
        socket.write(Buffer.concat(frames), () => {
          if (leave) resolve('left');
          if (leave) socket.destroy();
        }),
      );
      socket.once('error', reject);
      let read = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        read = Buffer.concat([read, chunk]);
        for (let at = 0; at + 9 <= read.length; at += 9 + read.readUIntBE(at, 3))
          if (read[at + 3] === 7 && at + 17 <= read.length) {
            resolve(read.readUInt32BE(at + 13));
            socket.destroy();
          }
      });
    }),
    'the flood',
  );
}

describe('a flood of RST_STREAM right after HEADERS (rapid reset)', () => {
  // Node's nghttp2 ends such a session with a GOAWAY, then reads its socket no more: a client that left at once was
  // never seen to, and its connection was held for good (a file descriptor and the session's memory each).
  it('ends the session with GOAWAY, and lets go of the connections of clients that left at once', async () => {
    const server = await listenTls();
    try {
      expect(await rapidReset(server.port, 2000, false)).toBe(2);
      const left = await Promise.all(Array.from({ length: 8 }, () => rapidReset(server.port, 2000, true)));
      expect(left).toEqual(Array(8).fill('left'));
      const held = async () => ((await connections(server)) === 0 ? true : undefined);
      await until(held, 'the server to let go of the flooding connections', 5_000);
    } finally {
      // A connection held so was never let go at shutdown either: close() never resolved.
      await within(server.close(), 'the server to close', 5_000);
    }
  });
});
