// The REST client end to end: the samples served on a real socket, called through clients made from the samples'
// own resource classes, as an application calling another service would.
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstValueFrom, from, lastValueFrom, ReplaySubject, retry, take, tap, timeout, toArray } from 'rxjs';
import {
  BadRequestException,
  ConstrainedTo,
  Consumes,
  NotFoundException,
  NotSupportedException,
  PayloadTooLargeException,
  Path,
  PUT,
  RestClient,
  type ClientRequestContext,
  type ClientRequestFilter,
  type ClientResponseContext,
  type ClientResponseFilter,
  type EntityInput,
  type MessageBodyReader,
} from '../../lib/client';
import { MultipartFormDataOutput, Produces, Provider, type RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { CheeseParams } from '../../samples/cheeses/cheese-params';
import { CheeseResource } from '../../samples/cheeses/cheese-resource';
import { FruitResource, fruitStore } from '../../samples/fruits/fruit-resource';
import { MultipartResource } from '../../samples/multipart/multipart-resource';
import { Person } from '../../samples/multipart/person';
import { Cheese } from '../../samples/negotiated/cheese';
import { NegotiatedResource } from '../../samples/negotiated/negotiated-resource';
import { RecordResource } from '../../samples/records/record-resource';
import { StoredFruitResource, type StoredFruit } from '../../samples/stored-fruits/stored-fruit-resource';
import { devToken } from '../../samples/security/mint-token';
import { StreamResource } from '../../samples/streams/stream-resource';
import { tempDir } from '../support/temp-dir';
import { until } from '../support/until';

let server: RunningServer;
let baseUrl: string;
const uploads = tempDir('client-upload');
const saved = [...fruitStore];

beforeAll(async () => {
  server = await buildSamples({ 'framework.http.limits.max-body-size': '256K' }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
  baseUrl = server.url;
});
afterAll(() => server.close());
afterEach(() => fruitStore.splice(0, fruitStore.length, ...saved));

describe('RestClient over the samples', () => {
  it('lists, adds and deletes fruits as JSON bodies, and maps a 400 problem to BadRequestException', async () => {
    const fruits = RestClient.create(FruitResource, { baseUrl });
    expect(await firstValueFrom(fruits.list())).toEqual([
      { name: 'Apple', description: 'Winter fruit' },
      { name: 'Pineapple', description: 'Tropical fruit' },
    ]);
    const added = await firstValueFrom(fruits.add({ name: 'Banana', description: 'Yellow' }));
    expect(added.map((fruit) => fruit.name)).toEqual(['Apple', 'Pineapple', 'Banana']);
    expect((await firstValueFrom(fruits.delete({ name: 'Apple' }))).map((fruit) => fruit.name)).toEqual([
      'Pineapple',
      'Banana',
    ]);

    const invalid = await firstValueFrom(fruits.add({ name: '' })).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(BadRequestException);
    const problem = (invalid as BadRequestException).problem;
    expect(problem?.status).toBe(400);
    expect(problem?.violations?.[0]).toMatchObject({ in: 'body', field: 'name', message: 'a fruit needs a name' });
    expect((invalid as BadRequestException).headers['content-type']).toContain('application/problem+json');
  });

  it('maps a 404 to NotFoundException with the text body as its message, and binds records by path', async () => {
    const cheeses = RestClient.create(CheeseResource, { baseUrl });
    expect(await firstValueFrom(cheeses.get('morbier'))).toBe('Cheese: morbier');
    const missing = await firstValueFrom(cheeses.get('gouda')).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NotFoundException);
    expect((missing as NotFoundException).message).toBe('Unknown cheese: gouda');
    expect((missing as NotFoundException).status).toBe(404);

    const records = RestClient.create(RecordResource, { baseUrl });
    expect(await firstValueFrom(records.get('2'))).toMatchObject({ id: 2, slug: 'second' });
    await expect(firstValueFrom(records.get('99'))).rejects.toBeInstanceOf(NotFoundException);
  });

  it('leaves out a context parameter (the Request) and follows a 303 See Other to the stored fruit, bound as JSON', async () => {
    const stored = RestClient.create(StoredFruitResource, { baseUrl });
    // A RestResponse<never> (the redirect) is typed unknown: what answers is the target of the 303.
    const fruit = (await firstValueFrom(stored.add({ name: 'Cherry', description: 'Red' }))) as StoredFruit;
    expect(fruit).toEqual({ id: expect.any(Number), name: 'Cherry', description: 'Red' });
    expect(await firstValueFrom(stored.get(fruit.id))).toEqual(fruit);
  });

  it('puts path, matrix, query, cookie, header and form parameters where the decorators say, directly and through a bean', async () => {
    const cheeses = RestClient.create(CheeseResource, { baseUrl });
    expect(await firstValueFrom(cheeses.allParams('tomme', 'goat', 'matured', 'hardcore', 'fist-bump', 'strong'))).toBe(
      'tomme/goat/matured/hardcore/fist-bump/strong',
    );
    const params = Object.assign(new CheeseParams(), {
      type: 'brie',
      variant: 'cow',
      age: 'young',
      level: 'mild',
      secretHandshake: 'wave',
      smell: 'soft',
    });
    expect(await firstValueFrom(cheeses.beanParams(params))).toBe('brie/cow/young/mild/wave/soft');
    // Encoded: a slash stays inside its path segment, spaces and non-ASCII survive every kind.
    expect(await firstValueFrom(cheeses.allParams('a/b c', 'é;x', 'x&y=z', 'crème brûlée', 'ok', 'ça sent'))).toBe(
      'a/b c/é;x/x&y=z/crème brûlée/ok/ça sent',
    );
  });

  it('negotiates: JSON bound to the declared class by default, text when a call asks for it, bodies by @Consumes', async () => {
    const negotiated = RestClient.create(NegotiatedResource, { baseUrl });
    const cheese = await firstValueFrom(negotiated.get());
    expect(cheese).toBeInstanceOf(Cheese);
    expect(cheese.toString()).toBe('Cheese: Morbier');
    expect(await firstValueFrom(negotiated.$with({ accept: 'text/plain' }).get())).toBe('Cheese: Morbier');
    expect(await firstValueFrom(negotiated.putJson(Cheese.of('Brie')))).toBe('Cheese: Brie');
    expect(await firstValueFrom(negotiated.putText('Comté'))).toEqual({ name: 'Comté' });
  });

  it('streams /streams/ticks as an Observable: every item in order, one per interval', async () => {
    const streams = RestClient.create(StreamResource, { baseUrl });
    const started = Date.now();
    const arrivals: number[] = [];
    const ticks = await lastValueFrom(
      streams.ticks(5, 40).pipe(
        tap(() => arrivals.push(Date.now() - started)),
        toArray(),
      ),
    );
    expect(ticks).toEqual(['0', '1', '2', '3', '4']);
    // One per 40 ms interval: the last arrives after four intervals at least, and they did not all come at once.
    expect(arrivals[4]! - arrivals[0]!).toBeGreaterThanOrEqual(4 * 40 - 15);
    const events = await lastValueFrom(streams.$events.ticks(2, 10).pipe(toArray()));
    expect(events.map((event) => event.data)).toEqual(['0', '1']);
  });

  it('reads a Multi answered as a JSON array item by item, as NDJSON line by line, and as SSE JSON data', async () => {
    const streams = RestClient.create(StreamResource, { baseUrl });
    const expected = [
      { name: 'Apple', description: 'Winter fruit' },
      { name: 'Pineapple', description: 'Tropical fruit' },
    ];
    expect(await lastValueFrom(streams.fruits().pipe(toArray()))).toEqual(expected);
    expect(await lastValueFrom(streams.$with({ accept: 'application/x-ndjson' }).fruits().pipe(toArray()))).toEqual(
      expected,
    );
    expect(await lastValueFrom(streams.$with({ accept: 'text/event-stream' }).fruits().pipe(toArray()))).toEqual(
      expected,
    );
  });

  it('sends an Observable as a streamed NDJSON body and reads the duplex answer item by item', async () => {
    const streams = RestClient.create(StreamResource, { baseUrl });
    expect(await lastValueFrom(streams.uppercase(from(['apple', 'pear', 'crème'])).pipe(toArray()))).toEqual([
      'APPLE',
      'PEAR',
      'CRÈME',
    ]);
    // The first answer arrives while the body is still being sent: the rest of the body is sent only once it is in
    // (not after 150 ms intervals, which a loaded machine could outrun), so a client that held the body back until
    // its end, or an answer until the body's end, would never get there.
    const words = new ReplaySubject<string>();
    const order: string[] = [];
    const send = (word: string) => (order.push(`sent ${word}`), words.next(word));
    send('w0');
    const answers = await lastValueFrom(
      streams.uppercase(words).pipe(
        tap((answer) => {
          order.push(`received ${answer}`);
          if (answer === 'W0') (send('w1'), send('w2'), words.complete());
        }),
        toArray(),
      ),
    );
    expect(answers).toEqual(['W0', 'W1', 'W2']);
    expect(order.slice(0, 2)).toEqual(['sent w0', 'received W0']);
    const fruits = RestClient.create(FruitResource, { baseUrl });
    expect(await firstValueFrom(fruits.import(from([{ name: 'Quince' }, { name: 'Medlar' }])))).toEqual({
      imported: 2,
    });
  });

  it('aborts the HTTP request when unsubscribed: the server sees the disconnect (/streams/active back to 0)', async () => {
    const streams = RestClient.create(StreamResource, { baseUrl });
    const active = async () => (await firstValueFrom(streams.active())).active;
    const subscriptions = [streams.ticks(undefined, 20).subscribe(), streams.ticks(undefined, 20).subscribe()];
    await until(async () => ((await active()) === 2 ? true : undefined), 'both streams to be active');
    subscriptions.forEach((subscription) => subscription.unsubscribe());
    // A request left open keeps its stream counted for ever: any deadline tells it, a generous one survives load.
    await until(async () => ((await active()) === 0 ? true : undefined), '/streams/active back to 0');
  });

  it('is cold: nothing is sent until subscribed, and each subscription sends again', async () => {
    const sent: string[] = [];
    const fruits = RestClient.create(FruitResource, {
      baseUrl,
      fetch: (request) => (sent.push(`${request.method} ${new URL(request.url).pathname}`), fetch(request)),
    });
    const call = fruits.list();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([]);
    await firstValueFrom(call);
    await firstValueFrom(call);
    expect(sent).toEqual(['GET /fruits', 'GET /fruits']);
  });

  it('uploads multipart forms (text, a file streamed from disk, a JSON part) and reads a multipart answer as FormData', async () => {
    const multipart = RestClient.create(MultipartResource, { baseUrl });
    const file = join(uploads, 'photo.png');
    writeFileSync(file, Buffer.alloc(5000, 7));
    const person = Object.assign(new Person(), { firstName: 'Grace', lastName: 'Hopper' });
    const summary = await firstValueFrom(multipart.upload('holiday', { path: file }, person));
    expect(summary).toEqual({
      description: 'holiday',
      image: { fileName: 'photo.png', size: 5000, contentType: 'application/octet-stream' },
      person: { firstName: 'Grace', lastName: 'Hopper' },
    });
    const fromBlob = await firstValueFrom(
      multipart.upload('blob', new File([new Uint8Array(10)], 'x.bin', { type: 'image/png' }), person),
    );
    expect(fromBlob.image).toEqual({ fileName: 'x.bin', size: 10, contentType: 'image/png' });

    const output = new MultipartFormDataOutput();
    output.addFormData('greeting', 'hello', 'text/plain');
    output.addFile('data', { path: file }, 'application/octet-stream');
    const all = await firstValueFrom(multipart.all(output));
    expect(Object.keys(all as object)).toEqual(['greeting', 'data']);

    const form = await firstValueFrom(multipart.person());
    expect(form).toBeInstanceOf(FormData);
    // A part without a file name is a string in FormData, whatever its Content-Type.
    expect(JSON.parse(String(form.get('person')))).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
    expect(form.get('note')).toBe('The first programmer');
  });

  it('answers a body over the limit with PayloadTooLargeException, and a media type the server refuses with NotSupportedException', async () => {
    const multipart = RestClient.create(MultipartResource, { baseUrl });
    const tooLarge = await firstValueFrom(
      multipart.upload('big', new Blob([new Uint8Array(1024 * 1024)]), new Person()),
    ).catch((error: unknown) => error);
    expect(tooLarge).toBeInstanceOf(PayloadTooLargeException);
    expect((tooLarge as PayloadTooLargeException).problem?.code).toBe('RXREST_BODY_TOO_LARGE');

    // A contract that disagrees with the server: it sends XML where the server takes JSON or text.
    @Path('negotiated')
    class XmlCheeses {
      @PUT
      @Consumes('application/xml')
      put(body: string): string {
        return body;
      }
    }
    const wrong = await firstValueFrom(RestClient.create(XmlCheeses, { baseUrl }).put('<cheese/>')).catch(
      (error: unknown) => error,
    );
    expect(wrong).toBeInstanceOf(NotSupportedException);
    expect((wrong as NotSupportedException).status).toBe(415);
  });

  it('leaves network errors as they are, so RxJS retry and timeout apply to them', async () => {
    const closed = RestClient.create(FruitResource, { baseUrl: 'http://127.0.0.1:9' });
    let attempts = 0;
    const counted = RestClient.create(FruitResource, {
      baseUrl: 'http://127.0.0.1:9',
      fetch: (request) => (attempts++, fetch(request)),
    });
    // fetch's own TypeError (from Node's realm, not the test's: hence the message).
    await expect(firstValueFrom(closed.list())).rejects.toThrow('fetch failed');
    await expect(firstValueFrom(counted.list().pipe(retry({ count: 2, delay: 10 })))).rejects.toThrow('fetch failed');
    expect(attempts).toBe(3);
    const streams = RestClient.create(StreamResource, { baseUrl });
    await expect(firstValueFrom(streams.ticks(undefined, 1000).pipe(timeout(100)))).rejects.toThrow(
      'Timeout has occurred',
    );
  });
});

describe('RestClient providers and filters', () => {
  it('runs request filters (a default header, a bearer token) and response filters, in order', async () => {
    const seen: string[] = [];
    // A token the samples accept (a refused one would answer 401 even on an open endpoint).
    const token = await devToken('alice', ['user']);
    class BearerToken implements ClientRequestFilter {
      filter(request: ClientRequestContext): void {
        request.headers.set('Authorization', `Bearer ${token}`);
        seen.push(`request ${request.method} ${request.url.pathname}`);
      }
    }
    const statuses: ClientResponseFilter = {
      filter(request: ClientRequestContext, response: ClientResponseContext) {
        seen.push(
          `response ${response.status} (auth ${request.headers.get('authorization')}, x ${request.headers.get('x-client')})`,
        );
      },
    };
    const cheeses = RestClient.create(CheeseResource, {
      baseUrl,
      headers: { 'X-Client': 'spec' },
      requestFilters: [BearerToken],
      responseFilters: [statuses],
    });
    await firstValueFrom(cheeses.get('brie'));
    expect(seen).toEqual(['request GET /cheeses/brie', `response 200 (auth Bearer ${token}, x spec)`]);
  });

  it('answers a call from a request filter with abortWith, without sending it', async () => {
    let sent = 0;
    const cached: ClientRequestFilter = { filter: (request) => request.abortWith(Response.json([{ name: 'Cached' }])) };
    const fruits = RestClient.create(FruitResource, {
      baseUrl,
      requestFilters: [cached],
      fetch: (request) => (sent++, fetch(request)),
    });
    expect(await firstValueFrom(fruits.list())).toEqual([{ name: 'Cached' }]);
    expect(sent).toBe(0);
  });

  it('reads with a registered reader for its @Consumes media types, and refuses a provider @ConstrainedTo the server', async () => {
    @Consumes('text/plain')
    class CheeseTextReader implements MessageBodyReader<Cheese> {
      isReadable(type: unknown): boolean {
        return type === Cheese;
      }
      async readFrom(_type: unknown, _mediaType: string, _headers: Headers, input: EntityInput): Promise<Cheese> {
        return Cheese.of((await input.text()).replace(/^Cheese: /, ''));
      }
    }
    const negotiated = RestClient.create(NegotiatedResource, { baseUrl, providers: [CheeseTextReader] });
    const cheese = await firstValueFrom(negotiated.$with({ accept: 'text/plain' }).get());
    expect(cheese).toEqual(Cheese.of('Morbier'));
    // JSON is outside the reader's @Consumes: the built-in JSON reading applies.
    expect(await firstValueFrom(negotiated.get())).toBeInstanceOf(Cheese);

    @Provider()
    @Produces('text/plain')
    @ConstrainedTo('server')
    class ServerOnlyWriter {
      isWriteable(): boolean {
        return true;
      }
      writeTo(): string {
        return '';
      }
    }
    expect(() => RestClient.create(NegotiatedResource, { baseUrl, providers: [ServerOnlyWriter] })).toThrow(
      "ServerOnlyWriter is @ConstrainedTo('server'): it cannot be registered on a REST client",
    );
  });

  it('refuses a class without endpoint methods, naming it', () => {
    class NotAResource {
      list(): string[] {
        return [];
      }
    }
    expect(() => RestClient.create(NotAResource, { baseUrl })).toThrow(
      'NotAResource has no endpoint methods (@GET, @POST...)',
    );
  });

  it('reads a long SSE answer event by event (10,000 of them), and an endless one until take() has enough', async () => {
    const streams = RestClient.create(StreamResource, { baseUrl });
    // 10,000 fruits sent at once: 10,000 ticks would take 10 s at the timer's 1 ms minimum, far more on a loaded machine.
    const many = Array.from({ length: 10_000 }, (_, n) => ({ name: `fruit ${n}`, description: `number ${n}` }));
    fruitStore.splice(0, fruitStore.length, ...many);
    const items = await lastValueFrom(streams.$with({ accept: 'text/event-stream' }).fruits().pipe(toArray()));
    expect(items).toEqual(many);
    const first = await firstValueFrom(streams.ticks(undefined, 0).pipe(take(3), toArray()));
    expect(first).toEqual(['0', '1', '2']);
  });
});
