// The REST client resumes the SSE answers of methods that take Last-Event-ID: over a real socket, through a proxy
// that cuts every connection mid-stream, each event is emitted once; it waits the server's retry:, sends the last
// id, stops on event: done and on 204, tries again after a 503, fails after its attempts, and lets the caller
// know of a reset (an exception, a callback, or an event).
import { concat, lastValueFrom, of, toArray } from 'rxjs';
import { RestClient, StreamEndedException, StreamResetException, type ClientSseEvent } from '../../lib/client';
import {
  DefaultJsonMapper,
  GET,
  HeaderParam,
  Path,
  Produces,
  QueryParam,
  RestApplication,
  ServiceUnavailableException,
  multi,
  sseEvent,
  type Multi,
  type RunningServer,
  type SseEvent,
} from '../../lib';
import { JobResource } from '../../samples/jobs/job-resource';
import { buildSamples } from '../../samples/app';
import { cuttingProxy } from '../support/cutting-proxy';

/** Every request the scripted resource got: its path and the Last-Event-ID it sent. */
const requests: { path: string; lastEventId: string | undefined; at: number }[] = [];

const numbered = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, n) =>
    sseEvent({ id: String(n + from), data: { n: n + from } }),
  );

@Path('scripted')
class ScriptedResource {
  /** Events 1..total, `per` on each connection, after the client's last id; a retry: first; done after the last. */
  @GET
  @Path('chunks')
  @Produces('text/event-stream')
  chunks(
    @QueryParam('total') total: number,
    @QueryParam('per') per: number,
    @QueryParam('retry') retry?: number,
    @HeaderParam('Last-Event-ID') lastEventId?: string,
  ): Multi<SseEvent> {
    requests.push({ path: 'chunks', lastEventId, at: Date.now() });
    const from = Number(lastEventId ?? 0) + 1;
    const to = Math.min(total, from + per - 1);
    const end = to === total ? [sseEvent({ event: 'done', data: 'ok' })] : [];
    return multi(concat(of(...(retry === undefined ? [] : [sseEvent({ retry })])), of(...numbered(from, to), ...end)));
  }

  /** Two events, a reset (the events up to 6 are gone), then 7, 8 and done. */
  @GET
  @Path('reset')
  @Produces('text/event-stream')
  reset(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    requests.push({ path: 'reset', lastEventId, at: Date.now() });
    return multi(
      of(
        ...numbered(1, 2),
        sseEvent({ event: 'reset', data: '7' }),
        ...numbered(7, 8),
        sseEvent({ event: 'done', data: 'ok' }),
      ),
    );
  }

  /** Ends at once, every time, with no event. */
  @GET
  @Path('empty')
  @Produces('text/event-stream')
  empty(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    requests.push({ path: 'empty', lastEventId, at: Date.now() });
    return multi(of<SseEvent>());
  }

  /** 503 the first time, then one event and done. */
  @GET
  @Path('unavailable')
  @Produces('text/event-stream')
  unavailable(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    requests.push({ path: 'unavailable', lastEventId, at: Date.now() });
    if (requests.filter((request) => request.path === 'unavailable').length === 1)
      throw new ServiceUnavailableException('restarting', { headers: { 'retry-after': '1' } });
    return multi(of(...numbered(1, 1), sseEvent({ event: 'done', data: 'ok' })));
  }

  /** Nothing more to send: 204. */
  @GET
  @Path('over')
  @Produces('text/event-stream')
  async over(@HeaderParam('Last-Event-ID') lastEventId?: string): Promise<Multi<SseEvent> | undefined> {
    requests.push({ path: 'over', lastEventId, at: Date.now() });
    return undefined;
  }

  /** One event, then the stream's failure. */
  @GET
  @Path('failing')
  @Produces('text/event-stream')
  failing(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    requests.push({ path: 'failing', lastEventId, at: Date.now() });
    return multi(of(...numbered(1, 1), sseEvent({ event: 'error', data: 'stream failed' })));
  }
}

let scripted: RunningServer;
let samples: RunningServer;
beforeAll(async () => {
  scripted = await RestApplication.build({
    classes: [ScriptedResource],
    overrides: { 'framework.rest.sse.keep-alive': '0' },
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  samples = await buildSamples({ 'framework.rest.sse.keep-alive': '0' }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(async () => {
  await scripted.close();
  await samples.close();
});
beforeEach(() => (requests.length = 0));

const client = (options: { delay?: number; attempts?: number } = { delay: 10 }) =>
  RestClient.create(ScriptedResource, { baseUrl: scripted.url, reconnect: options });

describe('RestClient: resuming SSE answers of methods that take Last-Event-ID', () => {
  it('emits every step of a job once while a proxy cuts each connection after 300 bytes, resuming from the last id each time', async () => {
    const proxy = await cuttingProxy([Number(new URL(samples.url).port)], { limit: 300 });
    try {
      const started = await fetch(`${samples.url}/jobs?steps=60&interval=5`, { method: 'POST' });
      const id = started.headers.get('location')!.split('/').pop()!;
      const jobs = RestClient.create(JobResource, { baseUrl: proxy.url, reconnect: { delay: 10 } });
      const items = await lastValueFrom(jobs.events(id).pipe(toArray()));
      expect(items).toEqual(Array.from({ length: 60 }, (_, n) => ({ step: n + 1 })));
      // Cut many times; every reconnection carried the id of the last event received, in increasing order.
      expect(proxy.lastEventIds.length).toBeGreaterThan(5);
      expect(proxy.lastEventIds[0]).toBeUndefined();
      const sent = proxy.lastEventIds.slice(1) as string[];
      expect(sent.every((id) => /^\d+-\d+$/.test(id))).toBe(true);
      expect([...sent].sort()).toEqual(sent);
    } finally {
      proxy.server.close();
    }
  });

  it('asks again when a connection is closed before any answer (fetch rejects), and emits each event once', async () => {
    const proxy = await cuttingProxy([Number(new URL(scripted.url).port)], { limit: Infinity, refuse: 2 });
    try {
      const calls = RestClient.create(ScriptedResource, { baseUrl: proxy.url, reconnect: { delay: 10 } });
      expect(await lastValueFrom(calls.chunks(7, 3).pipe(toArray()))).toEqual(
        [1, 2, 3, 4, 5, 6, 7].map((n) => ({ n })),
      );
      expect(proxy.refused).toBe(2);
      expect(requests.map((request) => request.lastEventId)).toEqual([undefined, '3', '6']);
    } finally {
      proxy.server.close();
    }
  });

  it('does not ask again after an error of a filter or of the JSON mapper, though a TypeError like those of fetch', async () => {
    const bug = new TypeError('a bug in a response filter');
    const filtered = RestClient.create(ScriptedResource, {
      baseUrl: scripted.url,
      reconnect: { delay: 10 },
      responseFilters: [
        {
          filter: () => {
            throw bug;
          },
        },
      ],
    });
    await expect(lastValueFrom(filtered.chunks(7, 3))).rejects.toBe(bug);
    expect(requests).toHaveLength(1);
    requests.length = 0;
    class BrokenMapper extends DefaultJsonMapper {
      override readValue(): unknown {
        throw new TypeError('a bug in the JSON mapper');
      }
    }
    const mapped = RestClient.create(ScriptedResource, {
      baseUrl: scripted.url,
      reconnect: { delay: 10 },
      jsonMapper: new BrokenMapper(),
    });
    await expect(lastValueFrom(mapped.chunks(7, 3))).rejects.toThrow('a bug in the JSON mapper');
    expect(requests).toHaveLength(1);
  });

  it('reconnects after a clean end without done, waiting the retry: the server gave, and completes on done', async () => {
    const items = await lastValueFrom(client().chunks(7, 3, 200).pipe(toArray()));
    expect(items).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => ({ n })));
    expect(requests.map((request) => request.lastEventId)).toEqual([undefined, '3', '6']);
    for (let at = 1; at < requests.length; at++)
      expect(requests[at]!.at - requests[at - 1]!.at).toBeGreaterThanOrEqual(190);
  });

  it('completes on a 204 and fails after `attempts` reconnections with no event between them', async () => {
    expect(await lastValueFrom(client().over().pipe(toArray()))).toEqual([]);
    expect(requests).toHaveLength(1);
    requests.length = 0;
    const endless = client({ delay: 5, attempts: 3 }).empty();
    await expect(lastValueFrom(endless)).rejects.toThrow(
      'ScriptedResource.empty: the stream ended 4 times in a row without an event',
    );
    expect(requests).toHaveLength(4);
    const gone = await lastValueFrom(
      RestClient.create(JobResource, { baseUrl: samples.url }).events('unknown').pipe(toArray()),
    ).catch((error: unknown) => error);
    expect(gone).toMatchObject({ status: 404 });
  });

  it('tries again after a 503, and ends with the server failure as a StreamEndedException', async () => {
    expect(await lastValueFrom(client().unavailable().pipe(toArray()))).toEqual([{ n: 1 }]);
    expect(requests.filter((request) => request.path === 'unavailable')).toHaveLength(2);
    await expect(lastValueFrom(client().failing())).rejects.toBeInstanceOf(StreamEndedException);
  });

  it('fails with StreamResetException on a reset, unless onReset is given; $events emits the reset as an event', async () => {
    const failed = await lastValueFrom(client().reset().pipe(toArray())).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(StreamResetException);
    expect((failed as StreamResetException).oldestId).toBe('7');
    const resets: (string | undefined)[] = [];
    const items = await lastValueFrom(
      RestClient.create(ScriptedResource, {
        baseUrl: scripted.url,
        reconnect: { onReset: (oldest) => resets.push(oldest) },
      })
        .reset()
        .pipe(toArray()),
    );
    expect(items).toEqual([1, 2, 7, 8].map((n) => ({ n })));
    expect(resets).toEqual(['7']);
    const events = (await lastValueFrom(client().$events.reset().pipe(toArray()))) as ClientSseEvent[];
    expect(events.map((event) => event.event ?? event.id)).toEqual(['1', '2', 'reset', '7', '8', 'done']);
  });

  it('does not reconnect when told not to', async () => {
    const once = await lastValueFrom(
      RestClient.create(ScriptedResource, { baseUrl: scripted.url })
        .$with({ reconnect: false })
        .chunks(7, 3)
        .pipe(toArray()),
    );
    expect(once).toEqual([1, 2, 3].map((n) => ({ n })));
    expect(requests).toHaveLength(1);
  });
});
