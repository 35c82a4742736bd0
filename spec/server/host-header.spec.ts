// The Host a client sends, over real sockets: two Host headers are refused (RFC 9112 §3.2), a Host outside
// framework.http.allowed-hosts is refused with a 400 problem, and with framework.http.public-base-url the absolute
// URLs an application makes (Location from UriInfo, Link headers) name the configured origin, never the Host.
import { connect as http2Connect } from 'node:http2';
import { connect } from 'node:net';
import {
  ConfigError,
  Context,
  GET,
  InjectRestLinks,
  POST,
  Path,
  RestLink,
  RestResponse,
  UriInfo,
  type RunningServer,
} from '../../lib';
import { buildApp, call } from '../support/app';
import { selfSignedCertificate } from '../support/certificate';
import { tempDir } from '../support/temp-dir';
import { within } from '../support/until';

export class Note {
  id = '1';
}

@Path('notes')
class NoteResource {
  @GET
  @RestLink({ rel: 'list', entityType: Note })
  @InjectRestLinks()
  list(): Note[] {
    return [new Note()];
  }

  @POST
  create(@Context() uriInfo: UriInfo): RestResponse<never> {
    return RestResponse.created(uriInfo.absolutePathBuilder().path('7').build()) as RestResponse<never>;
  }
}

interface RawAnswer {
  readonly status: number;
  readonly head: string;
  readonly body: string;
}

/** Writes `request` as it is onto a new connection and reads the one answer (the server closes, or 15 s pass). */
function exchange(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    };
    const timer = setTimeout(done, 15_000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (end >= 0 && length !== undefined && text.length >= end + 4 + Number(length)) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
    socket.write(request);
  });
}

const headerOf = (answer: RawAnswer, name: string): string[] =>
  answer.head
    .split('\r\n')
    .filter((line) => line.toLowerCase().startsWith(`${name}:`))
    .map((line) => line.slice(name.length + 1).trim());

async function serve(overrides: Record<string, string | boolean> = {}): Promise<RunningServer> {
  return buildApp([NoteResource], overrides).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
}

describe('the Host header', () => {
  it('answers 400 problem JSON to a request with two Host headers, and serves one with a single Host', async () => {
    const server = await serve();
    try {
      const twice = await exchange(
        server.port,
        'GET /notes HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
      );
      expect(twice.status).toBe(400);
      expect(headerOf(twice, 'content-type')).toEqual(['application/problem+json;charset=UTF-8']);
      expect(JSON.parse(twice.body)).toMatchObject({ status: 400, code: 'RXREST_INVALID_HOST' });
      const once = await exchange(server.port, 'GET /notes HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(once.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses a Host outside framework.http.allowed-hosts with 400, and serves names, ports and subdomains in it', async () => {
    const server = await serve({ 'framework.http.allowed-hosts': 'api.example.com, *.example.org, localhost:8080' });
    const ask = (host: string) =>
      exchange(server.port, `GET /notes HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    try {
      const refused = await ask('evil.example');
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'RXREST_INVALID_HOST' });
      expect(refused.body).not.toContain('api.example.com');
      expect((await ask('api.example.com')).status).toBe(200);
      expect((await ask('API.Example.COM:8443')).status).toBe(200);
      expect((await ask('eu.example.org')).status).toBe(200);
      expect((await ask('example.org')).status).toBe(400);
      expect((await ask('localhost:8080')).status).toBe(200);
      expect((await ask('localhost:9090')).status).toBe(400);
      // What a Link header is made of is the allowed Host, not another.
      expect(headerOf(await ask('eu.example.org'), 'link')).toEqual(['<http://eu.example.org/notes>; rel="list"']);
      // A target in absolute form names the host itself (RFC 9112 §3.2.2): that one is checked.
      const absolute = await exchange(
        server.port,
        'GET http://evil.example/notes HTTP/1.1\r\nHost: api.example.com\r\nConnection: close\r\n\r\n',
      );
      expect(absolute.status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('ignores a forwarded host outside framework.http.allowed-hosts when it makes links', async () => {
    const server = await serve({
      'framework.http.allowed-hosts': 'api.example.com',
      'framework.http.proxy.proxy-address-forwarding': true,
    });
    const list = (forwarded: string) =>
      exchange(
        server.port,
        `GET /notes HTTP/1.1\r\nHost: api.example.com\r\nX-Forwarded-Host: ${forwarded}\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n`,
      );
    try {
      expect(headerOf(await list('evil.example'), 'link')).toEqual(['<https://api.example.com/notes>; rel="list"']);
      // Hosts compare without case: the link names the host as the request's URL does (UriInfo, Location).
      expect(headerOf(await list('API.example.com:8443'), 'link')).toEqual([
        '<https://api.example.com:8443/notes>; rel="list"',
      ]);
    } finally {
      await server.close();
    }
  });

  it('makes Location and Link absolute on framework.http.public-base-url, whatever Host or X-Forwarded-Host say', async () => {
    const server = await serve({
      'framework.http.public-base-url': 'https://api.example.com',
      'framework.http.proxy.proxy-address-forwarding': true,
    });
    try {
      const created = await exchange(
        server.port,
        'POST /notes HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      );
      expect(created.status).toBe(201);
      expect(headerOf(created, 'location')).toEqual(['https://api.example.com/notes/7']);
      const listed = await exchange(
        server.port,
        'GET /notes HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\nConnection: close\r\n\r\n',
      );
      expect(headerOf(listed, 'link')).toEqual(['<https://api.example.com/notes>; rel="list"']);
    } finally {
      await server.close();
    }
  });

  it('checks :authority the same way over HTTP/2', async () => {
    const server = await buildApp([NoteResource], {
      'framework.http.h2c': true,
      'framework.http.allowed-hosts': 'api.example.com',
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const session = http2Connect(server.url);
    const ask = (authority: string) =>
      within(
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const stream = session.request({ ':path': '/notes', ':authority': authority });
          let body = '';
          let status = 0;
          stream.setEncoding('utf8');
          stream.on('response', (headers) => (status = Number(headers[':status'])));
          stream.on('data', (chunk: string) => (body += chunk));
          stream.on('end', () => resolve({ status, body }));
          stream.on('error', reject);
        }),
        'the answer over HTTP/2',
      );
    try {
      const refused = await ask('evil.example');
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'RXREST_INVALID_HOST' });
      expect((await ask('api.example.com')).status).toBe(200);
    } finally {
      session.close();
      await server.close();
    }
  });

  it('applies the same rules in process (app.fetch), where the Host is the URL’s', async () => {
    const app = buildApp([NoteResource], {
      'framework.http.allowed-hosts': 'api.example.com',
      'framework.http.public-base-url': 'https://api.example.com:8443/',
    });
    const refused = await call(app, '/notes');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'RXREST_INVALID_HOST' });
    const created = await app.fetch(new Request('http://api.example.com/notes', { method: 'POST' }));
    expect(created.headers.get('location')).toBe('https://api.example.com:8443/notes/7');
  });

  it('stops the build on an allowed host or public base URL that cannot be one', () => {
    expect(() => buildApp([NoteResource], { 'framework.http.allowed-hosts': 'api.example.com/x' })).toThrow(
      ConfigError,
    );
    expect(() => buildApp([NoteResource], { 'framework.http.public-base-url': 'https://api.example.com/v1' })).toThrow(
      ConfigError,
    );
    expect(() => buildApp([NoteResource], { 'framework.http.public-base-url': 'ftp://api.example.com' })).toThrow(
      ConfigError,
    );
  });

  describe('on the plain port that redirects to HTTPS', () => {
    const { certificate, key } = selfSignedCertificate(tempDir('host-redirect'));
    const tls = {
      'framework.http.ssl.certificate.file': certificate,
      'framework.http.ssl.certificate.key-file': key,
      'framework.http.ssl-port': '0',
      'framework.http.insecure-requests': 'redirect',
    };

    it('redirects to the public base URL rather than to the Host, and refuses a Host outside the allowed ones', async () => {
      const server = await serve({
        ...tls,
        'framework.http.public-base-url': 'https://api.example.com',
        'framework.http.allowed-hosts': 'api.example.com',
      });
      try {
        const port = server.insecure!.port;
        const refused = await exchange(port, 'GET /notes HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
        expect(refused.status).toBe(400);
        expect(headerOf(refused, 'location')).toEqual([]);
        const moved = await exchange(
          port,
          'GET /notes?a=1 HTTP/1.1\r\nHost: api.example.com\r\nConnection: close\r\n\r\n',
        );
        expect(moved.status).toBe(308);
        expect(headerOf(moved, 'location')).toEqual(['https://api.example.com/notes?a=1']);
      } finally {
        await server.close();
      }
    });
  });
});
