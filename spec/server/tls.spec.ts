// TLS and HTTP/2 over real connections, with node:http2 and https clients: the samples (and one big NDJSON
// stream) served on a TLS port with a certificate made at run time. ALPN picks h2 or falls back to HTTP/1.1;
// streams, cancellation, limits and items in work over HTTP/2 as over HTTP/1.1; no connection-specific header
// is ever sent on HTTP/2; the plain port can redirect; a missing certificate stops the start.
import { X509Certificate } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { map, Observable, range } from 'rxjs';
import {
  ConfigError,
  GET,
  Path,
  Produces,
  RestApplication,
  StreamBuffer,
  multi,
  type Multi,
  type RunningServer,
} from '../../lib';
import { sampleClasses } from '../../samples/classes';
import { encryptedKey, selfSignedCertificate } from '../support/certificate';
import { tempDir } from '../support/temp-dir';
import { until, within } from '../support/until';

let floodActive = 0;
let floodStarted = 0;

@Path('flood')
class FloodResource {
  /** An endless burst of 1 KB lines, far faster than a paused client reads, under a 64K budget that fails. */
  @GET
  @Produces('application/x-ndjson')
  @StreamBuffer({ size: '64K', overflow: 'fail' })
  flood(): Multi<string> {
    return multi(
      new Observable<string>((subscriber) => {
        floodActive++;
        floodStarted++;
        let timer: NodeJS.Immediate;
        const burst = () => {
          for (let n = 0; n < 64 && !subscriber.closed; n++) subscriber.next('x'.repeat(1024));
          if (!subscriber.closed) timer = setImmediate(burst);
        };
        timer = setImmediate(burst);
        return () => {
          floodActive--;
          clearImmediate(timer);
        };
      }),
    );
  }
}

@Path('big')
class BigResource {
  @GET
  @Produces('application/x-ndjson')
  items(): Multi<{ i: number }> {
    return multi(range(0, 100_000).pipe(map((i) => ({ i }))));
  }
}

const samplesDirectory = join(__dirname, '..', '..', 'samples');
const certificates = tempDir('tls');
const { certificate, key } = selfSignedCertificate(certificates);

function build(overrides: Record<string, string> = {}) {
  return RestApplication.build({
    classes: [...sampleClasses, BigResource, FloodResource],
    directory: samplesDirectory,
    overrides: {
      'framework.http.ssl.certificate.file': certificate,
      'framework.http.ssl.certificate.key-file': key,
      'framework.http.ssl-port': '0',
      'framework.http.limits.max-body-size': '256K',
      'framework.rest.sse.keep-alive': '0',
      ...overrides,
    },
  });
}

interface H2Reply {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request on an HTTP/2 session; the whole answer. */
function h2(
  session: ClientHttp2Session,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<H2Reply> {
  const reply = new Promise<H2Reply>((resolve, reject) => {
    const stream = session.request({ ':path': path, ':method': init.method ?? 'GET', ...init.headers });
    let headers: IncomingHttpHeaders = {};
    let body = '';
    stream.setEncoding('utf8');
    stream.on('response', (received) => (headers = received));
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => resolve({ headers, body }));
    stream.on('error', reject);
    stream.end(init.body);
  });
  return within(reply, `the answer to ${init.method ?? 'GET'} ${path} over HTTP/2`);
}

const CONNECTION_HEADERS = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection'];

describe('TLS with HTTP/2', () => {
  let server: RunningServer;
  let session: ClientHttp2Session;
  beforeAll(async () => {
    server = await build().listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    session = connect(server.url, { ca: readFileSync(certificate) });
    await within(
      new Promise((resolve, reject) => session.once('connect', resolve).once('error', reject)),
      'the HTTP/2 session to connect',
    );
  });
  afterAll(async () => {
    session?.close();
    await server?.close();
  });

  it('serves HTTPS on its own port beside the plain one, choosing h2 by ALPN, and HTTP/1.1 for a client without it', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.insecure?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(session.alpnProtocol).toBe('h2');
    const fruits = await h2(session, '/fruits');
    expect(fruits.headers[':status']).toBe(200);
    expect(JSON.parse(fruits.body)[0]).toEqual({ name: 'Apple', description: 'Winter fruit' });
    const overHttp1 = await within(
      new Promise<{ status: number; version: string; body: string }>((resolve, reject) => {
        httpsRequest(`${server.url}/fruits`, { ca: readFileSync(certificate) }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, version: res.httpVersion, body }));
        })
          .on('error', reject)
          .end();
      }),
      'the answer over HTTPS/1.1',
    );
    expect(overHttp1).toMatchObject({ status: 200, version: '1.1' });
    expect(JSON.parse(overHttp1.body)).toEqual(JSON.parse(fruits.body));
    const plain = await fetch(`${server.insecure!.url}/fruits`);
    expect(plain.status).toBe(200);
  });

  it('serves 30 requests on one HTTPS/1.1 keep-alive connection without holding anything more per request on its socket', async () => {
    const sockets: TLSSocket[] = [];
    const onConnection = (socket: TLSSocket) => socket.alpnProtocol !== 'h2' && sockets.push(socket);
    server.server!.on('secureConnection', onConnection);
    const agent = new HttpsAgent({ keepAlive: true, maxSockets: 1, ca: readFileSync(certificate) });
    const closeListeners: number[] = [];
    try {
      for (let n = 1; n <= 30; n++) {
        const status = await within(
          new Promise<number>((resolve, reject) => {
            httpsRequest(`${server.url}/fruits`, { agent }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            })
              .on('error', reject)
              .end();
          }),
          `answer ${n} over HTTPS/1.1`,
        );
        expect(status).toBe(200);
        if (n === 5 || n === 30) closeListeners.push(sockets[0]!.listenerCount('close'));
      }
      expect(sockets).toHaveLength(1);
      expect(closeListeners[1]).toBe(closeListeners[0]);
    } finally {
      agent.destroy();
      server.server!.off('secureConnection', onConnection);
    }
  });

  it('carries 50 concurrent SSE streams on one session, every one complete, with no connection-specific header', async () => {
    const streams = await Promise.all(
      Array.from({ length: 50 }, () => h2(session, '/streams/ticks?count=5&intervalMs=20')),
    );
    for (const stream of streams) {
      expect(stream.headers[':status']).toBe(200);
      expect(stream.body).toBe('data:0\n\ndata:1\n\ndata:2\n\ndata:3\n\ndata:4\n\n');
      for (const name of CONNECTION_HEADERS) expect(stream.headers[name]).toBeUndefined();
    }
  });

  it('delivers a 100,000-item NDJSON stream complete', async () => {
    const reply = await h2(session, '/big');
    const lines = reply.body.split('\n').filter(Boolean);
    expect(lines).toHaveLength(100_000);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ i: 99_999 });
  });

  it('stops the source of an endless stream the client resets (RST_STREAM): /streams/active back to 0', async () => {
    const active = async () => JSON.parse((await h2(session, '/streams/active')).body).active as number;
    const stream = session.request({ ':path': '/streams/ticks?intervalMs=20' });
    await within(new Promise((resolve) => stream.once('data', resolve)), 'the first tick');
    expect(await active()).toBe(1);
    stream.close(constants.NGHTTP2_CANCEL);
    // A source left running keeps the count at 1 for ever: any deadline tells it, a generous one survives a loaded machine.
    await until(async () => ((await active()) === 0 ? true : undefined), '/streams/active back to 0');
  });

  it('answers a multipart upload past its limit with 413, a JSON problem, over HTTP/2', async () => {
    const boundary = 'x-boundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.alloc(1024 * 1024, 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const reply = await h2(session, '/multipart', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(reply.headers[':status']).toBe(413);
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'RXREST_BODY_TOO_LARGE' });
    for (const name of CONNECTION_HEADERS) expect(reply.headers[name]).toBeUndefined();
  });

  it('takes a multipart upload to disk and answers a JSON-array stream over HTTP/2', async () => {
    const boundary = 'x-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nover h2\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="small.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      Buffer.alloc(10_000, 2),
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="person"\r\nContent-Type: application/json\r\n\r\n{"firstName":"Ada","lastName":"Lovelace"}\r\n--${boundary}--\r\n`,
      ),
    ]);
    const upload = await h2(session, '/multipart', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(upload.headers[':status']).toBe(200);
    expect(JSON.parse(upload.body)).toEqual({
      description: 'over h2',
      image: { fileName: 'small.png', size: 10_000, contentType: 'image/png' },
      person: { firstName: 'Ada', lastName: 'Lovelace' },
    });
    const array = await h2(session, '/streams/fruits');
    expect(array.headers['content-type']).toContain('application/json');
    expect(JSON.parse(array.body)).toEqual([
      { name: 'Apple', description: 'Winter fruit' },
      { name: 'Pineapple', description: 'Tropical fruit' },
    ]);
  });

  it('holds a stream back by its HTTP/2 flow control: a client that reads nothing gets its stream failed by the budget, the session lives on', async () => {
    const started = floodStarted;
    const stream = session.request({ ':path': '/flood' });
    stream.on('error', () => undefined);
    // Nothing is read: the stream's window fills, the server's budget (64K) fills behind it.
    stream.pause();
    const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode ?? 0)));
    await until(() => (floodStarted !== started ? true : undefined), 'the flood to start', 15_000, 5);
    // The server ends the stream itself once it is a whole budget ahead of the client; its source is unsubscribed.
    await until(() => (floodActive === 0 ? true : undefined), 'the flood source to be unsubscribed');
    expect(await within(closed, 'the flooded stream to be reset')).toBe(constants.NGHTTP2_INTERNAL_ERROR);
    expect((await h2(session, '/fruits')).headers[':status']).toBe(200);
  });

  it("reads a request body of items and answers item by item over HTTP/2 (the samples' /streams/uppercase)", async () => {
    const reply = await h2(session, '/streams/uppercase', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: '"tls"\n"h2"\n',
    });
    expect(reply.headers[':status']).toBe(200);
    expect(reply.body).toBe('"TLS"\n"H2"\n');
  });

  it('negotiates, checks preconditions and compresses over HTTP/2 as over HTTP/1.1', async () => {
    const text = await h2(session, '/negotiated', { headers: { accept: 'text/plain' } });
    expect(text.body).toBe('Cheese: Morbier');
    const conditional = await h2(session, '/conditional', { headers: { 'if-none-match': '"v1"' } });
    expect(conditional.headers[':status']).toBe(304);
    const page = await h2(session, '/index.html', { headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    const range = await h2(session, '/index.html', { headers: { range: 'bytes=0-4' } });
    expect([range.headers[':status'], range.body]).toEqual([
      206,
      readFileSync(join(samplesDirectory, 'public', 'index.html'), 'utf8').slice(0, 5),
    ]);
  });
});

describe('the plain port with TLS on', () => {
  it('redirects every request to the same path on HTTPS with insecure-requests=redirect (308 keeps the method)', async () => {
    const server = await build({ 'framework.http.insecure-requests': 'redirect' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      const reply = await within(
        new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
          httpRequest(
            `${server.insecure!.url}/fruits?x=1`,
            { method: 'POST', headers: { host: 'example.test:8080' } },
            (res) => resolve({ status: res.statusCode ?? 0, location: res.headers.location }),
          )
            .on('error', reject)
            .end();
        }),
        'the redirect',
      );
      expect(reply).toEqual({ status: 308, location: `https://example.test:${server.port}/fruits?x=1` });
    } finally {
      await server.close();
    }
  });

  it('answers 408 on the redirecting port soon after framework.http.headers-timeout, as on the others', async () => {
    // Node checks the timeouts only every connectionsCheckingInterval (30 s by default): the redirecting server was the
    // one left with it, so a stalled head waited half a minute there.
    const server = await build({
      'framework.http.insecure-requests': 'redirect',
      'framework.http.headers-timeout': '1s',
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        const socket = netConnect(server.insecure!.port, '127.0.0.1', () =>
          socket.write('GET / HTTP/1.1\r\nHost: x\r\n'),
        );
        const giveUp = setTimeout(() => socket.destroy(), 10_000);
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => (clearTimeout(giveUp), resolve(text)));
      });
      // Unenforced, it would wait for Node's 30 s check: 8 s leaves a loaded machine room and still tells them apart.
      expect([answer.slice(0, 13), Date.now() - started < 8000]).toEqual(['HTTP/1.1 408 ', true]);
    } finally {
      await server.close();
    }
  });

  it('is not opened with insecure-requests=disabled', async () => {
    const server = await build({ 'framework.http.insecure-requests': 'disabled' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      expect(server.insecure).toBeUndefined();
      expect(server.url).toMatch(/^https:/);
    } finally {
      await server.close();
    }
  });
});

describe('shutdown, reload and cleartext HTTP/2', () => {
  const reloadDirectory = tempDir('tls-reload');
  it('ends an SSE stream over HTTP/2 with its retry hint and sends GOAWAY when the server closes', async () => {
    const server = await build({ 'framework.shutdown.timeout': '120s' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    const session = connect(server.url, { ca: readFileSync(certificate) });
    try {
      const goaway = new Promise((resolve) => session.once('goaway', resolve));
      const stream = session.request({ ':path': '/streams/ticks?intervalMs=20' });
      stream.setEncoding('utf8');
      let body = '';
      stream.on('data', (chunk: string) => (body += chunk));
      const ended = new Promise((resolve) => stream.once('end', resolve));
      await within(new Promise((resolve) => stream.once('data', resolve)), 'the first tick');
      const started = Date.now();
      // At once, not at the end of the 120 s shutdown timeout an open stream would otherwise hold the server to (a
      // bound far below it, so that a loaded machine cannot fail it).
      await within(server.close(), 'the server to close', 15_000);
      await within(Promise.all([ended, goaway]), 'the end of the stream and GOAWAY');
      expect(body.endsWith('retry:1000\n\n')).toBe(true);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      session.destroy();
      await server.close();
    }
  });

  it('reloads the certificate on SIGHUP: new connections get the new one, the open session keeps working', async () => {
    const directory = reloadDirectory;
    const first = selfSignedCertificate(directory, 'first');
    const live = { certificate: join(directory, 'live.cert.pem'), key: join(directory, 'live.key.pem') };
    copyFileSync(first.certificate, live.certificate);
    copyFileSync(first.key, live.key);
    const server = await build({
      'framework.http.ssl.certificate.file': live.certificate,
      'framework.http.ssl.certificate.key-file': live.key,
    }).listen({ port: 0, host: '127.0.0.1' });
    const peer = (session: ClientHttp2Session) =>
      (session.socket as unknown as TLSSocket).getPeerCertificate().fingerprint256;
    try {
      const before = connect(server.url, { rejectUnauthorized: false });
      await within(new Promise((resolve) => before.once('connect', resolve)), 'the first session to connect');
      const second = selfSignedCertificate(directory, 'second');
      copyFileSync(second.certificate, live.certificate);
      copyFileSync(second.key, live.key);
      process.emit('SIGHUP', 'SIGHUP');
      const after = connect(server.url, { rejectUnauthorized: false });
      await within(new Promise((resolve) => after.once('connect', resolve)), 'the second session to connect');
      const fingerprint = (file: string) => new X509Certificate(readFileSync(file)).fingerprint256;
      expect(peer(before)).toBe(fingerprint(first.certificate));
      expect(peer(after)).toBe(fingerprint(second.certificate));
      expect((await h2(before, '/fruits')).headers[':status']).toBe(200);
      before.close();
      after.close();
    } finally {
      await server.close();
    }
  });

  it('speaks cleartext HTTP/2 with prior knowledge on the plain port with framework.http.h2c=true', async () => {
    const server = await RestApplication.build({
      classes: [BigResource],
      overrides: { 'framework.http.h2c': 'true' },
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const session = connect(server.url);
    try {
      const reply = await h2(session, '/big');
      expect(reply.headers[':status']).toBe(200);
      expect(reply.body.split('\n').filter(Boolean)).toHaveLength(100_000);
    } finally {
      session.close();
      await server.close();
    }
  });
});

/** The protocol ALPN settles on for a client offering h2 and HTTP/1.1 (`false`: the server took part in none). */
function negotiated(port: number): Promise<string | false> {
  const protocol = new Promise<string | false>((resolve, reject) => {
    const socket = tlsConnect(
      { host: '127.0.0.1', port, ALPNProtocols: ['h2', 'http/1.1'], rejectUnauthorized: false },
      () => {
        resolve(socket.alpnProtocol ?? false);
        socket.end();
      },
    );
    socket.on('error', reject);
  });
  return within(protocol, 'the TLS handshake');
}

/** A GET over HTTPS/1.1: status and body. */
function https1(url: string, options: { ca?: Buffer } = {}): Promise<{ status: number; body: string }> {
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    httpsRequest(url, { agent: false, ...options, rejectUnauthorized: options.ca !== undefined }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
  return within(answer, `the answer to GET ${url} over HTTPS/1.1`);
}

describe('TLS settings', () => {
  it('answers 408 to HTTP/1.1 on the HTTP/2 TLS port soon after framework.http.headers-timeout, as on the others', async () => {
    // Node's HTTP/2 server checks the timeouts of its HTTP/1.1 connections every 30 s whatever they are: a stalled head
    // waited half a minute there, on the default TLS port, past a 1 s headers-timeout.
    const server = await build({ 'framework.http.headers-timeout': '1s' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        const options = {
          port: server.port,
          host: '127.0.0.1',
          ALPNProtocols: ['http/1.1'],
          ca: readFileSync(certificate),
        };
        const socket = tlsConnect(options, () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
        const giveUp = setTimeout(() => socket.destroy(), 10_000);
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => (clearTimeout(giveUp), resolve(text)));
      });
      // Unenforced, it would wait for Node's 30 s check: 8 s leaves a loaded machine room and still tells them apart.
      expect([answer.slice(0, 13), Date.now() - started < 8000]).toEqual(['HTTP/1.1 408 ', true]);
    } finally {
      await server.close();
    }
  });

  it('speaks only HTTP/1.1 on the TLS port with framework.http.http2=false', async () => {
    const server = await build({ 'framework.http.http2': 'false' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      expect(await negotiated(server.port)).toBe('http/1.1');
      expect(
        (await https1(`${server.url}/big`, { ca: readFileSync(certificate) })).body.split('\n').filter(Boolean),
      ).toHaveLength(100_000);
      const on = await build().listen({ port: 0, host: '127.0.0.1', handleSignals: false });
      try {
        expect(await negotiated(on.port)).toBe('h2');
      } finally {
        await on.close();
      }
    } finally {
      await server.close();
    }
  });

  it('reads an encrypted key with framework.http.ssl.certificate.key-password, and names the key when the password is wrong', async () => {
    const encrypted = encryptedKey({ certificate, key }, 'open sesame');
    const server = await build({
      'framework.http.ssl.certificate.key-file': encrypted,
      'framework.http.ssl.certificate.key-password': 'open sesame',
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      expect((await https1(`${server.url}/fruits`, { ca: readFileSync(certificate) })).status).toBe(200);
    } finally {
      await server.close();
    }
    const wrong = () =>
      build({
        'framework.http.ssl.certificate.key-file': encrypted,
        'framework.http.ssl.certificate.key-password': 'wrong',
      });
    expect(wrong).toThrow(ConfigError);
    expect(wrong).toThrow(
      `framework.http.ssl.certificate.key-password: "(hidden)" (from configuration) — the password of the encrypted key ${encrypted} (it does not decrypt it)`,
    );
    expect(wrong).not.toThrow(/wrong/);
    expect(() => build({ 'framework.http.ssl.certificate.key-file': encrypted })).toThrow(
      `the password of the encrypted key ${encrypted} (none is set)`,
    );
  });
});

describe('certificate problems stop the start', () => {
  it('names the key and the file of a certificate that does not exist', () => {
    const missing = join(certificates, 'missing.pem');
    expect(() => build({ 'framework.http.ssl.certificate.file': missing })).toThrow(ConfigError);
    expect(() => build({ 'framework.http.ssl.certificate.file': missing })).toThrow(
      `framework.http.ssl.certificate.file: "${missing}" (from configuration) — a readable PEM file (ENOENT)`,
    );
  });

  it('refuses a key that does not belong to the certificate, and a certificate without a key', () => {
    const other = selfSignedCertificate(certificates, 'other');
    expect(() => build({ 'framework.http.ssl.certificate.key-file': other.key })).toThrow(
      /a PEM certificate and the private key that belongs to it/,
    );
    expect(() =>
      RestApplication.build({
        classes: [BigResource],
        overrides: { 'framework.http.ssl.certificate.file': certificate },
      }),
    ).toThrow(
      'framework.http.ssl.certificate.key-file: "" (from configuration) — set, since framework.http.ssl.certificate.file is (TLS needs both)',
    );
  });
});
