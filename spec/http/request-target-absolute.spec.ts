// A request target in absolute form (`GET https://host/notes HTTP/1.1`) names the host in place of `Host` (RFC 9112
// §3.2.2), never the scheme: that is the connection's, unless a trusted proxy forwarded another. An `https://` target
// over plain HTTP made `https://` links and Locations, an `http://` one over TLS `http://`. And `OPTIONS *` (the
// asterisk form, RFC 9110 §9.3.7) asks about the server as a whole: a 200, where it was a 400.
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Context, GET, InjectRestLinks, Path, POST, RestLink, RestResponse, UriInfo } from '../../lib';
import { buildApp } from '../support/app';
import { selfSignedCertificate } from '../support/certificate';
import { tempDir } from '../support/temp-dir';

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

/** Writes `request` on a new connection (TLS when `tls`) and reads the head of the one answer. */
function exchange(port: number, request: string, tls = false): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] };
    const socket = tls ? tlsConnect(options, () => socket.write(request)) : connect(port, '127.0.0.1');
    if (!tls) socket.write(request);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
    socket.on('error', reject);
  });
}

const headerOf = (head: string, name: string): string[] =>
  head
    .split('\r\n')
    .filter((line) => line.toLowerCase().startsWith(`${name}:`))
    .map((line) => line.slice(name.length + 1).trim());

const ask = (port: number, start: string, tls = false, more = '') =>
  exchange(port, `${start} HTTP/1.1\r\nHost: localhost\r\n${more}Content-Length: 0\r\nConnection: close\r\n\r\n`, tls);

describe('requestUrl over a real socket', () => {
  const { certificate, key } = selfSignedCertificate(tempDir('absolute-form'));

  it("makes links and Locations on the connection's scheme and the absolute-form target's host", async () => {
    const server = await buildApp([NoteResource]).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      const listed = await ask(server.port, 'GET https://api.example.com/notes');
      expect(headerOf(listed.head, 'link')).toEqual(['<http://api.example.com/notes>; rel="list"']);
      const created = await ask(server.port, 'POST https://api.example.com:8443/notes');
      expect(headerOf(created.head, 'location')).toEqual(['http://api.example.com:8443/notes/7']);
    } finally {
      await server.close();
    }
  });

  it('makes them https:// over TLS, whatever scheme the target names', async () => {
    const server = await buildApp([NoteResource], {
      'framework.http.ssl.certificate.file': certificate,
      'framework.http.ssl.certificate.key-file': key,
      'framework.http.ssl-port': '0',
      'framework.http.insecure-requests': 'disabled',
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      const listed = await ask(server.port, 'GET http://localhost/notes', true);
      expect(headerOf(listed.head, 'link')).toEqual(['<https://localhost/notes>; rel="list"']);
      const created = await ask(server.port, 'POST http://localhost/notes', true);
      expect(headerOf(created.head, 'location')).toEqual(['https://localhost/notes/7']);
    } finally {
      await server.close();
    }
  });

  it('takes the scheme a trusted proxy forwarded', async () => {
    const server = await buildApp([NoteResource], { 'framework.http.proxy.proxy-address-forwarding': true }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      const listed = await ask(server.port, 'GET http://localhost/notes', false, 'X-Forwarded-Proto: https\r\n');
      expect(headerOf(listed.head, 'link')).toEqual(['<https://localhost/notes>; rel="list"']);
    } finally {
      await server.close();
    }
  });

  it("redirects an absolute-form target's path onto HTTPS at its host, with insecure-requests=redirect", async () => {
    const server = await buildApp([NoteResource], {
      'framework.http.ssl.certificate.file': certificate,
      'framework.http.ssl.certificate.key-file': key,
      'framework.http.ssl-port': '0',
      'framework.http.insecure-requests': 'redirect',
      'framework.http.allowed-hosts': 'localhost, api.example.com',
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      const moved = await ask(server.insecure!.port, 'GET http://api.example.com/notes?x=1');
      expect([moved.status, headerOf(moved.head, 'location')]).toEqual([
        308,
        [`https://api.example.com:${server.port}/notes?x=1`],
      ]);
      expect((await ask(server.insecure!.port, 'GET http://evil.example/notes')).status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('answers OPTIONS * with 200 and no content, another method with * 400, a Host not allowed 400', async () => {
    const server = await buildApp([NoteResource], { 'framework.http.allowed-hosts': 'localhost' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      const options = await ask(server.port, 'OPTIONS *');
      expect([options.status, headerOf(options.head, 'content-length')]).toEqual([200, ['0']]);
      expect((await ask(server.port, 'GET *')).status).toBe(400);
      const elsewhere = await exchange(
        server.port,
        'OPTIONS * HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
      );
      expect([elsewhere.status, JSON.parse(elsewhere.body).code]).toEqual([400, 'RXREST_INVALID_HOST']);
    } finally {
      await server.close();
    }
  });
});
