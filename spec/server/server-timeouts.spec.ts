// The TLS handshake under framework.http.headers-timeout, over real sockets: a client that opens the TLS port and
// never finishes its handshake (or never begins it) is cut soon after the headers timeout, as a client that never
// finishes its headers is, on the HTTPS/1.1 and the HTTP/2 TLS ports alike; Node alone held it for 120 s.
import { connect, type Socket } from 'node:net';
import { GET, Path, RestApplication, resolveConfig, type RunningServer } from '../../lib';
import { selfSignedCertificate } from '../support/certificate';
import { tempDir } from '../support/temp-dir';
import { until } from '../support/until';

const certificates = tempDir('server-timeouts');

@Path('hello')
class HelloResource {
  @GET
  hello(): string {
    return 'hello';
  }
}

const clients: Socket[] = [];

function listen(http2: boolean): Promise<RunningServer> {
  const { certificate, key } = selfSignedCertificate(certificates);
  const config = resolveConfig({
    overrides: {
      'framework.http.ssl.certificate.file': certificate,
      'framework.http.ssl.certificate.key-file': key,
      'framework.http.ssl-port': 0,
      'framework.http.insecure-requests': 'disabled',
      'framework.http.http2': http2,
      'framework.http.headers-timeout': '1s',
    },
  });
  return RestApplication.build({ classes: [HelloResource], config }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
}

/** When the server closed a connection to `port` that sends `first` (or nothing), in ms after it opened. */
function closedAfter(port: number, first?: Buffer): Promise<() => number | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    clients.push(socket);
    const opened = Date.now();
    let closed: number | undefined;
    socket.on('data', () => undefined);
    socket.once('error', reject);
    socket.once('close', () => (closed = Date.now() - opened));
    socket.once('connect', () => {
      if (first) socket.write(first);
      resolve(() => closed);
    });
  });
}

// The first bytes of a TLS 1.2 ClientHello record, the rest never sent.
const PARTIAL_HELLO = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]);

describe('a TLS handshake that never completes', () => {
  it.each([
    ['the HTTP/2 TLS port', true],
    ['an HTTPS/1.1 port', false],
  ])('is cut soon after framework.http.headers-timeout on %s', async (_port, http2) => {
    const server = await listen(http2);
    try {
      const silent = await closedAfter(server.port);
      const partial = await closedAfter(server.port, PARTIAL_HELLO);
      const both = await until(() => {
        const [a, b] = [silent(), partial()];
        return a !== undefined && b !== undefined ? [a, b] : undefined;
      }, 'both connections cut');
      // Not cut, a connection would wait for the default 60 s or Node's 30 s check: 8 s leaves a loaded machine room.
      for (const after of both) expect(after).toBeLessThan(8_000);
    } finally {
      clients.splice(0).forEach((socket) => socket.destroy());
      await server.close();
    }
  });
});
