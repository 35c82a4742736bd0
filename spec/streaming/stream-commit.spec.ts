// When a stream's response is committed, and what the client sees when it fails before or after that,
// over a real socket (in process, `app.fetch` would hide a head that never went out).
import { request, type IncomingMessage } from 'node:http';
import { concat, map, NEVER, Observable, of, range, throwError, timer } from 'rxjs';
import { GET, Path, Produces, StreamBuffer, multi, type Multi, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';

const failLater = () =>
  timer(30).pipe(
    map((): never => {
      throw new Error('secret detail');
    }),
  );

@Path('commit')
class CommitResource {
  @GET
  @Path('silent')
  @Produces('text/event-stream')
  silent(): Multi<string> {
    return multi(NEVER);
  }

  @GET
  @Path('silent-generator')
  @Produces('text/event-stream')
  async *silentGenerator(): AsyncGenerator<string> {
    await new Promise(() => undefined);
    yield 'never';
  }

  @GET
  @Path('sync-failure')
  @Produces('text/event-stream')
  syncFailure(): Multi<string> {
    return multi(throwError(() => new Error('secret detail')));
  }

  @GET
  @Path('sse-late-failure')
  @Produces('text/event-stream')
  sseLateFailure(): Multi<string> {
    return multi(concat(of('a'), failLater()));
  }

  @GET
  @Path('ndjson-early-failure')
  @Produces('application/x-ndjson')
  ndjsonEarlyFailure(): Multi<unknown> {
    // One item, then a failure, all before the response could be committed: it answers 500, not a truncated body.
    return multi(
      concat(
        of({ i: 0 }),
        throwError(() => new Error('secret detail')),
      ),
    );
  }

  @GET
  @Path('ndjson-late-failure')
  @Produces('application/x-ndjson')
  ndjsonLateFailure(): Multi<unknown> {
    return multi(concat(of({ i: 0 }), failLater()));
  }

  @GET
  @Path('too-big')
  @Produces('application/x-ndjson', 'application/json')
  @StreamBuffer({ size: '16K' })
  tooBig(): Multi<unknown> {
    // About 1.3 MB emitted at once: more than the budget before anything could be written.
    return multi(range(0, 100_000).pipe(map((i) => ({ i }))));
  }
}

let server: RunningServer;
beforeAll(async () => {
  server = await buildApp([CommitResource], { 'framework.rest.sse.keep-alive': 0 }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(() => server.close());

/** The head as soon as it arrives, and later the body and whether it ended cleanly. */
function open(
  path: string,
  accept = '*/*',
): Promise<{ res: IncomingMessage; rest: Promise<{ body: string; complete: boolean }>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, agent: false, headers: { accept } }, (res) => {
      const rest = new Promise<{ body: string; complete: boolean }>((done) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('error', () => undefined);
        res.on('close', () => done({ body, complete: res.complete }));
      });
      resolve({ res, rest, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('committing a stream response', () => {
  it.each(['silent', 'silent-generator'])('sends an SSE head at once, before any event (%s)', async (path) => {
    const { res, close } = await open(`/commit/${path}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    close();
  });

  it('maps an SSE source that fails as it is subscribed, with a real status', async () => {
    const { res, rest } = await open('/commit/sync-failure');
    expect(res.statusCode).toBe(500);
    expect((await rest).body).not.toContain('secret');
  });

  it('ends SSE with an error event after the events that came before', async () => {
    const { res, rest } = await open('/commit/sse-late-failure');
    expect(res.statusCode).toBe(200);
    const { body, complete } = await rest;
    expect(body).toBe('data:a\n\nevent:error\ndata:stream failed\n\n');
    expect(complete).toBe(true);
  });

  it('answers 500 for a stream that fails before anything could be written, even after its first item', async () => {
    const { res, rest } = await open('/commit/ndjson-early-failure');
    expect(res.statusCode).toBe(500);
    expect((await rest).body).not.toContain('secret');
  });

  it('truncates an NDJSON stream that fails after commit, after delivering what came before', async () => {
    const { res, rest } = await open('/commit/ndjson-late-failure');
    expect(res.statusCode).toBe(200);
    const { body, complete } = await rest;
    expect(body).toBe('{"i":0}\n');
    expect(complete).toBe(false);
  });

  it.each(['application/x-ndjson', 'application/json'])(
    'answers 500 when a synchronous source overflows its budget before the commit (%s)',
    async (accept) => {
      const { res, rest } = await open('/commit/too-big', accept);
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toContain('json');
      expect((await rest).body).not.toContain('buffer-size');
    },
  );
});
