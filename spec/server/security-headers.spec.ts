// X-Content-Type-Options: nosniff on every answer, over real sockets (HTTP/1.1 and HTTP/2) and in process: values,
// problems the pipeline or the listener writes, files, streams, Web Responses and HEAD; framework.http.nosniff=false
// turns it off.
import { connect as http2Connect } from 'node:http2';
import { request } from 'node:http';
import { interval, map, take } from 'rxjs';
import { GET, Path, Produces, localFile, multi, type Multi, type RunningServer } from '../../lib';
import { buildApp, call } from '../support/app';

@Path('sniff')
class SniffResource {
  @GET @Path('json') json(): { ok: boolean } {
    return { ok: true };
  }

  @GET @Path('text') @Produces('text/plain') text(): string {
    return '<html><script>alert(1)</script>';
  }

  @GET @Path('thrown') thrown(): string {
    throw new Error('inside');
  }

  @GET @Path('file') file(): unknown {
    return localFile(__filename, 'text/plain');
  }

  @GET @Path('web') web(): Response {
    return new Response('from a Web Response', { headers: { 'content-type': 'text/plain' } });
  }

  @GET @Path('ticks') @Produces('text/event-stream') ticks(): Multi<number> {
    return multi(
      interval(5).pipe(
        take(2),
        map((n) => n),
      ),
    );
  }
}

/** The value of X-Content-Type-Options of one HTTP/1.1 answer, its body read to the end. */
function sniffOption(server: RunningServer, path: string, method = 'GET', headers: Record<string, string> = {}) {
  return new Promise<string | undefined>((resolve, reject) => {
    request(`${server.url}${path}`, { method, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['x-content-type-options'] as string | undefined));
    })
      .on('error', reject)
      .end();
  });
}

const PATHS = ['/sniff/json', '/sniff/text', '/sniff/thrown', '/sniff/file', '/sniff/web', '/sniff/ticks', '/nowhere'];

describe('X-Content-Type-Options', () => {
  it('is nosniff on every answer over HTTP/1.1: values, problems, files, streams, Web Responses, HEAD, refusals', async () => {
    const server = await buildApp([SniffResource]).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      const options = await Promise.all(PATHS.map((path) => sniffOption(server, path)));
      expect(options).toEqual(PATHS.map(() => 'nosniff'));
      expect(await sniffOption(server, '/sniff/text', 'HEAD')).toBe('nosniff');
      expect(await sniffOption(server, '/sniff/%zz')).toBe('nosniff');
    } finally {
      await server.close();
    }
  });

  it('is nosniff over HTTP/2', async () => {
    const server = await buildApp([SniffResource], { 'framework.http.h2c': true }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    const session = http2Connect(server.url);
    try {
      const options = await Promise.all(
        PATHS.map(
          (path) =>
            new Promise<unknown>((resolve, reject) => {
              const stream = session.request({ ':path': path });
              let option: unknown;
              stream.on('response', (headers) => (option = headers['x-content-type-options']));
              stream.resume();
              stream.on('end', () => resolve(option));
              stream.on('error', reject);
            }),
        ),
      );
      expect(options).toEqual(PATHS.map(() => 'nosniff'));
    } finally {
      session.close();
      await server.close();
    }
  });

  it('is nosniff in process, and absent with framework.http.nosniff=false', async () => {
    const on = buildApp([SniffResource]);
    for (const path of PATHS) expect((await call(on, path)).headers.get('x-content-type-options')).toBe('nosniff');
    const off = buildApp([SniffResource], { 'framework.http.nosniff': false });
    for (const path of PATHS) expect((await call(off, path)).headers.get('x-content-type-options')).toBeNull();
    const server = await off.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      expect(await sniffOption(server, '/sniff/json')).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
