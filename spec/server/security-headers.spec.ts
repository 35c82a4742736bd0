// X-Content-Type-Options: nosniff on every answer, over real sockets (HTTP/1.1 and HTTP/2) and in process: values,
// problems the pipeline or the listener writes, files, streams, Web Responses and HEAD; framework.http.nosniff=false
// turns it off.
import { connect as http2Connect } from 'node:http2';
import { request } from 'node:http';
import { interval, map, take } from 'rxjs';
import { z } from 'zod';
import {
  GET,
  McpServer,
  OnOpen,
  Path,
  Produces,
  Tool,
  WebSocketEndpoint,
  localFile,
  multi,
  type Multi,
  type RunningServer,
} from '../../lib';
import { buildApp, call } from '../support/app';
import { initializeRequest, MCP_HEADERS } from '../support/mcp';
import { within } from '../support/until';

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

@WebSocketEndpoint('/ws/sniff')
class SniffSocket {
  @OnOpen greet(): string {
    return 'hello';
  }
}

@McpServer('/mcp', { name: 'sniff' })
class SniffTools {
  @Tool({ description: 'Echoes a text', input: z.object({ text: z.string() }) })
  echo(args: { text: string }): string {
    return args.text;
  }
}

/** The value of X-Content-Type-Options of one HTTP/1.1 answer, its body read to the end. */
function sniffOption(server: RunningServer, path: string, method = 'GET', headers: Record<string, string> = {}) {
  return within(
    new Promise<string | undefined>((resolve, reject) => {
      request(`${server.url}${path}`, { method, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers['x-content-type-options'] as string | undefined));
      })
        .on('error', reject)
        .end();
    }),
    'the answer',
  );
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
        PATHS.map((path) =>
          within(
            new Promise<unknown>((resolve, reject) => {
              const stream = session.request({ ':path': path });
              let option: unknown;
              stream.on('response', (headers) => (option = headers['x-content-type-options']));
              stream.resume();
              stream.on('end', () => resolve(option));
              stream.on('error', reject);
            }),
            'the answer over HTTP/2',
          ),
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

  it('is nosniff on the refusals of a WebSocket upgrade and on MCP answers', async () => {
    const server = await buildApp([SniffSocket, SniffTools]).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    const upgrade = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' };
    const key = { 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };
    try {
      // Another site's page (403), a plain GET (426), and a handshake without its key.
      expect(
        await sniffOption(server, '/ws/sniff', 'GET', { ...upgrade, ...key, origin: 'https://evil.example' }),
      ).toBe('nosniff');
      expect(await sniffOption(server, '/ws/sniff')).toBe('nosniff');
      expect(await sniffOption(server, '/ws/sniff', 'GET', upgrade)).toBe('nosniff');
      expect(await sniffOption(server, '/mcp', 'GET', { accept: 'text/event-stream', 'mcp-session-id': 'none' })).toBe(
        'nosniff',
      );
      const initialized = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify(initializeRequest()),
      });
      expect(initialized.headers.get('x-content-type-options')).toBe('nosniff');
      await initialized.body?.cancel();
    } finally {
      await server.close();
    }
  });
});
