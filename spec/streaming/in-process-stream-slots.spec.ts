// Stream slots of an application served in process (`app.fetch`, no Node listener: an embedding server, the REST or
// MCP client with `fetch: app.fetch`): the place a stream holds under `@RateLimit({ streams })` and
// framework.http.limits.max-streams* is given back once its Response body has been read to its end, cancelled by its
// reader, or its Request's signal aborted (what a fetch caller does to leave), never kept for good.
import { NEVER, concat, finalize, firstValueFrom, interval, map, of, take } from 'rxjs';
import { z } from 'zod';
import { GET, McpServer, Path, Produces, RateLimit, Tool, multi, type Multi, type RestApp } from '../../lib';
import { RestClient } from '../../lib/client';
import { buildApp, call } from '../support/app';
import { until } from '../support/until';
import { openSession } from '../support/mcp';

/** Endless streams whose source has been unsubscribed. */
let stopped = 0;

@Path('slots')
class SlotResource {
  /** A stream that ends by itself after three events. */
  @GET
  @Path('short')
  @Produces('text/event-stream')
  @RateLimit({ streams: 1 })
  short(): Multi<string> {
    return multi(interval(1).pipe(take(3), map(String)));
  }

  /** A stream that never ends: only its reader can. */
  @GET
  @Path('endless')
  @Produces('application/x-ndjson')
  @RateLimit({ streams: 1 })
  endless(): Multi<string> {
    return multi(concat(of('open'), NEVER).pipe(finalize(() => stopped++)));
  }
}

@McpServer('/mcp', { name: 'slots-spec' })
class SlotTools {
  @Tool({ description: 'Echoes a text', input: z.object({ text: z.string() }) })
  echo(args: { text: string }): string {
    return args.text;
  }
}

/** The first chunk of `path`'s body, then the reader cancels it; the status of the answer. */
async function readThenCancel(app: RestApp, path: string): Promise<number> {
  const response = await call(app, path);
  if (response.status !== 200) return (await response.body?.cancel(), response.status);
  const reader = response.body!.getReader();
  await reader.read();
  await reader.cancel();
  return response.status;
}

describe('stream slots served in process', () => {
  it('are given back when a stream’s body has been read to its end', async () => {
    const app = buildApp([SlotResource], { 'framework.rest.sse.keep-alive': '0' });
    for (let round = 0; round < 3; round++) {
      const response = await call(app, '/slots/short');
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('data:2');
    }
  });

  it('are given back when the reader cancels a body, under the endpoint’s limit and the per-client cap', async () => {
    const app = buildApp([SlotResource], { 'framework.http.limits.max-streams-per-client': 1 });
    for (let round = 0; round < 3; round++) expect(await readThenCancel(app, '/slots/endless')).toBe(200);
  });
});

describe('a stream served in process whose caller aborts its Request', () => {
  it('gives its slot back and stops its source, though nobody cancels the body', async () => {
    const app = buildApp([SlotResource], { 'framework.http.limits.max-streams': 1 });
    for (let round = 0; round < 3; round++) {
      const before = stopped;
      const caller = new AbortController();
      const response = await app.fetch(new Request('http://localhost/slots/endless', { signal: caller.signal }));
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('open');
      caller.abort();
      await until(() => (stopped > before ? true : undefined), 'the source stopped', 5_000);
      await expect(reader.read()).rejects.toThrow();
    }
  });

  it('as the REST client does when its subscriber leaves, with fetch: app.fetch', async () => {
    const app = buildApp([SlotResource]);
    const client = RestClient.create(SlotResource, {
      baseUrl: 'http://localhost',
      fetch: async (request) => app.fetch(request),
    });
    for (let round = 0; round < 3; round++) {
      const before = stopped;
      expect(await firstValueFrom(client.endless())).toBe('open');
      await until(() => (stopped > before ? true : undefined), 'the source stopped', 5_000);
    }
  });
});

describe('an MCP server served in process', () => {
  it('counts its session streams against the caps and gives a slot back when the caller aborts', async () => {
    const app = buildApp([SlotTools], { 'framework.http.limits.max-streams': 1, 'framework.rest.sse.keep-alive': '0' });
    const listen = (session: string, signal?: AbortSignal) =>
      app.fetch(
        new Request('http://localhost/mcp', {
          headers: { accept: 'text/event-stream', 'mcp-session-id': session },
          signal,
        }),
      );
    // Both sessions first: a POST is a stream too while it lasts, so a full server refuses it as well.
    const [one, second] = [await openSession(app), await openSession(app)];
    const first = new AbortController();
    const held = await listen(one, first.signal);
    expect(held.status).toBe(200);
    const refused = await listen(second);
    expect(refused.status).toBe(503);
    await refused.body?.cancel();
    first.abort();
    const after = await listen(second);
    expect(after.status).toBe(200);
    await after.body!.cancel();
  });
});
