import { Observable, interval, map, of, range, throwError, finalize } from 'rxjs';
import {
  GET,
  Multi,
  Path,
  Produces,
  RestApplication,
  RestMulti,
  StreamBuffer,
  multi,
  resolveConfig,
  sseEvent,
} from '../../lib';

let finalized = 0;

@Path('s')
class StreamSpecResource {
  @GET
  @Path('items')
  @Produces('application/json', 'application/x-ndjson', 'text/event-stream', 'text/plain')
  items(): Multi<unknown> {
    return multi(of({ name: 'hello' }, { name: 'stef' }));
  }

  @GET
  @Path('empty')
  empty(): RestMulti<unknown> {
    return RestMulti.fromMulti(multi(of())).status(222).header('foo', 'bar');
  }

  @GET
  @Path('default')
  byDefault(): Multi<number> {
    return multi(of(1, 2, 3));
  }

  @GET
  @Path('events')
  @Produces('text/event-stream')
  events(): Multi<unknown> {
    return multi(
      of(sseEvent({ comment: 'dummy' }), sseEvent({ id: 'one', event: 'eins', data: 'uno' }), 'two\nlines', { n: 1 }),
    );
  }

  @GET
  @Path('early-error')
  @Produces('text/event-stream')
  earlyError(): Multi<string> {
    return multi(throwError(() => new Error('secret detail')));
  }

  @GET
  @Path('late-error')
  @Produces('text/event-stream')
  lateError(): Multi<string> {
    return multi(
      new Observable<string>((s) => (s.next('a'), setTimeout(() => s.error(new Error('secret detail')), 5), undefined)),
    );
  }

  @GET
  @Path('late-error-json')
  @Produces('application/x-ndjson')
  lateErrorJson(): Multi<string> {
    return multi(
      new Observable<string>((s) => (s.next('a'), setTimeout(() => s.error(new Error('secret detail')), 5), undefined)),
    );
  }

  @GET
  @Path('generator')
  @Produces('application/x-ndjson')
  async *generator(): AsyncGenerator<number> {
    yield 1;
    yield 2;
  }

  @GET
  @Path('plain-observable')
  @Produces('text/event-stream')
  plainObservable(): Observable<string> {
    return of('x', 'y');
  }

  @GET
  @Path('endless')
  @Produces('text/event-stream')
  endless(): Multi<string> {
    return multi(
      interval(5).pipe(
        map(String),
        finalize(() => finalized++),
      ),
    );
  }

  @GET
  @Path('bytes')
  @Produces('application/octet-stream')
  bytes(): ReadableStream<Uint8Array> {
    return new ReadableStream({
      start: (c) => (c.enqueue(new Uint8Array([65, 66])), c.enqueue(new Uint8Array([67])), c.close()),
    });
  }

  @GET
  @Path('set')
  @Produces('application/x-ndjson')
  set(): Multi<string> {
    return multi.from(new Set(['a', 'b', 'a', 'c']));
  }

  @GET
  @Path('map-values')
  @Produces('application/json')
  mapValues(): Multi<number> {
    return Multi.from(
      new Map([
        ['one', 1],
        ['two', 2],
      ]).values(),
    );
  }

  @GET
  @Path('sync-generator')
  @Produces('application/json')
  *syncGenerator(): Generator<number> {
    yield 1;
    yield 2;
  }

  @GET
  @Path('bigints')
  @Produces('application/json')
  bigints(): Multi<unknown> {
    return multi(range(0, 600).pipe(map((i) => (i === 550 ? { big: 2n ** 64n } : i))));
  }

  @GET
  @Path('json-seq')
  @Produces('application/json-seq')
  jsonSeq(): Multi<unknown> {
    return multi(of({ a: 1 }, 'b'));
  }

  @GET
  @Path('five-thousand')
  @Produces('application/x-ndjson')
  fiveThousand(): Multi<number> {
    return multi(range(0, 5000));
  }
}

const app = RestApplication.build({
  classes: [StreamSpecResource],
  config: resolveConfig({ overrides: { 'framework.rest.sse.keep-alive': '0' } }),
});
const get = (path: string, accept = '*/*') =>
  app.fetch(new Request(`http://localhost${path}`, { headers: { accept } }));

describe('stream results', () => {
  it('frames a Multi as a JSON array, NDJSON, SSE or raw chunks by Accept', async () => {
    expect(await (await get('/s/items', 'application/json')).text()).toBe('[{"name":"hello"},{"name":"stef"}]');
    expect(await (await get('/s/items', 'application/x-ndjson')).text()).toBe('{"name":"hello"}\n{"name":"stef"}\n');
    const sse = await get('/s/items', 'text/event-stream');
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    expect(await sse.text()).toBe('data:{"name":"hello"}\n\ndata:{"name":"stef"}\n\n');
  });

  it('writes an empty RestMulti as [] with its status and headers', async () => {
    const response = await get('/s/empty');
    expect(response.status).toBe(222);
    expect(response.headers.get('foo')).toBe('bar');
    expect(await response.text()).toBe('[]');
  });

  it('streams a Multi without @Produces as a JSON array', async () => {
    const response = await get('/s/default');
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.text()).toBe('[1,2,3]');
  });

  it('writes SSE events with comment, id, event and one data line per line', async () => {
    expect(await (await get('/s/events')).text()).toBe(
      ':dummy\n\nid:one\nevent:eins\ndata:uno\n\ndata:two\ndata:lines\n\ndata:{"n":1}\n\n',
    );
  });

  it('maps an error before the first item like any error', async () => {
    const response = await get('/s/early-error');
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret');
  });

  it('ends SSE with an error event, without its detail, after commit', async () => {
    const response = await get('/s/late-error');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('data:a\n\nevent:error\ndata:stream failed\n\n');
  });

  it('truncates other framings when the source fails after commit', async () => {
    const response = await get('/s/late-error-json');
    await expect(response.text()).rejects.toThrow();
  });

  it('pulls async generators and Web streams', async () => {
    expect(await (await get('/s/generator')).text()).toBe('1\n2\n');
    expect(await (await get('/s/bytes')).text()).toBe('ABC');
  });

  it('streams a plain Observable under a streaming @Produces', async () => {
    expect(await (await get('/s/plain-observable')).text()).toBe('data:x\n\ndata:y\n\n');
  });

  it('streams what multi.from (or Multi.from) pulls: a Set, the values of a Map', async () => {
    expect(await (await get('/s/set')).text()).toBe('"a"\n"b"\n"c"\n');
    expect(await (await get('/s/map-values')).text()).toBe('[1,2]');
  });

  it('streams a generator object a method returns', async () => {
    expect(await (await get('/s/sync-generator')).text()).toBe('[1,2]');
  });

  it('writes BigInts as strings inside a burst of a JSON array framed many items at a time', async () => {
    const items = JSON.parse(await (await get('/s/bigints')).text()) as unknown[];
    expect(items).toHaveLength(600);
    expect(items[550]).toEqual({ big: '18446744073709551616' });
    expect(items[599]).toBe(599);
  });

  it('writes application/json-seq as RFC 7464 records', async () => {
    expect(await (await get('/s/json-seq')).text()).toBe('\x1e{"a":1}\n\x1e"b"\n');
  });

  it('writes 5000 fast items as 5000 lines', async () => {
    const text = await (await get('/s/five-thousand')).text();
    expect(text.split('\n')).toHaveLength(5001);
  });

  it('unsubscribes when the reader cancels', async () => {
    const before = finalized;
    const response = await get('/s/endless');
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(finalized).toBe(before + 1);
  });
});

describe('stream budgets', () => {
  it('refuses a @StreamBuffer size below 16K when the class is defined, naming the class, the method and the new meaning', () => {
    expect(() => {
      class Legacy {
        @GET
        @StreamBuffer({ size: 1024 })
        items(): Multi<number> {
          return multi(of(1));
        }
      }
      return Legacy;
    }).toThrow(
      '@StreamBuffer on Legacy.items: A stream buffer size must be at least 16K, a byte budget such as 64M, no longer a count of items; got 1024',
    );
  });

  it('reads sizes as text and refuses a RestMulti budget below 16K', () => {
    expect(RestMulti.fromMulti(multi(of(1))).buffer('1M', 'latest').bufferSize).toBe(1024 * 1024);
    expect(() => RestMulti.fromMulti(multi(of(1))).buffer(8)).toThrow(RangeError);
    expect(() => RestMulti.fromMulti(multi(of(1))).buffer('10MB')).toThrow(RangeError);
  });
});
