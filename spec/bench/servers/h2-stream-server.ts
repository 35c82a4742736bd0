/**
 * The HTTP/2 bench server, on TLS with the certificate named by argv[3] and argv[4]: `GET /bench/{sse|ndjson}?n=N`
 * (an Observable of `{ i }` items) and `GET /bench/hello`, from rxrest (HTTP/2 with HTTP/1.1 by ALPN on one port)
 * or a raw `node:http2` server writing the same frames (argv[2] = `rxrest` | `raw`).
 */
import { readFileSync } from 'node:fs';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { map, range } from 'rxjs';
import { GET, multi, Path, Produces, QueryParam, RestApplication, resolveConfig, type Multi } from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

@Path('bench')
class H2BenchResource {
  @GET
  @Path('sse')
  @Produces('text/event-stream')
  sse(@QueryParam('n') n: number): Multi<{ i: number }> {
    return multi(range(0, n).pipe(map((i) => ({ i }))));
  }

  @GET
  @Path('ndjson')
  @Produces('application/x-ndjson')
  ndjson(@QueryParam('n') n: number): Multi<{ i: number }> {
    return multi(range(0, n).pipe(map((i) => ({ i }))));
  }

  @GET
  @Path('hello')
  @Produces('text/plain')
  hello(): string {
    return 'hello';
  }
}

/** The limit: one `write` per frame on the HTTP/2 stream, honouring `drain`. */
function raw(cert: Buffer, key: Buffer): Promise<number> {
  const server = createSecureServer({ cert, key, allowHTTP1: true }, (request, response) => {
    const url = new URL(request.url, 'https://x');
    if (url.pathname === '/bench/hello')
      return void response.writeHead(200, { 'content-type': 'text/plain;charset=UTF-8' }).end('hello');
    const n = Number(url.searchParams.get('n'));
    const sse = url.pathname.endsWith('sse');
    response.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/x-ndjson' });
    let i = 0;
    const pump = () => {
      while (i < n) {
        const json = JSON.stringify({ i: i++ });
        if (!response.write(sse ? `data:${json}\n\n` : `${json}\n`)) return void response.once('drain', pump);
      }
      response.end();
    };
    pump();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function main(): Promise<void> {
  const [kind, certificate, key] = process.argv.slice(2) as [string, string, string];
  if (kind === 'raw') {
    process.stdout.write(`${READY_PREFIX}${await raw(readFileSync(certificate), readFileSync(key))}\n`);
    followParent(() => undefined);
    return;
  }
  const overrides = {
    'framework.http.ssl.certificate.file': certificate,
    'framework.http.ssl.certificate.key-file': key,
    'framework.http.ssl-port': 0,
    'framework.http.port': 0,
    'framework.http.insecure-requests': 'disabled',
  };
  const app = RestApplication.build({ classes: [H2BenchResource], config: resolveConfig({ overrides }) });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  process.stdout.write(`${READY_PREFIX}${server.port}\n`);
  followParent(() => void server.close());
}

void main();
