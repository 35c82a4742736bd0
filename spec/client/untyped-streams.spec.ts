// A method whose declared stream type does not survive into the decorator metadata (`import { type Multi }`,
// `type Observable`, async iterables and generators all leave `Object`): the server marks the JSON array it
// streams (`Stream-Items: json-array`) and the client emits its items, as the client's types say; a single
// value that is an array stays one value.
import { lastValueFrom, of, toArray, type Observable } from 'rxjs';
import {
  APIResponse,
  GET,
  Path,
  RestApplication,
  logging,
  multi,
  type LogRecord,
  type Multi,
  type RunningServer,
} from '../../lib';
import { RestClient } from '../../lib/client';
import { readDesignType } from '../../lib/metadata/reflect-shim';
import { z } from 'zod';

interface Fruit {
  readonly name: string;
}

const FRUITS: Fruit[] = [{ name: 'Apple' }, { name: 'Pear' }, { name: 'Plum' }];

@Path('untyped')
class Untyped {
  @GET
  @Path('multi')
  multi(): Multi<Fruit> {
    return multi(of(...FRUITS));
  }

  @GET
  @Path('generator')
  async *generator(): AsyncGenerator<Fruit> {
    for (const fruit of FRUITS) yield fruit;
  }

  @GET
  @Path('iterable')
  iterable(): AsyncIterable<Fruit> {
    return (async function* () {
      yield* FRUITS;
    })();
  }

  @GET
  @Path('whole')
  whole(): Observable<Fruit[]> {
    return of(FRUITS);
  }

  @GET
  @Path('array')
  array(): Fruit[] {
    return FRUITS;
  }
}

@Path('documented')
class Documented {
  @GET
  @APIResponse({ schema: z.object({ name: z.string() }) })
  list(): Multi<Fruit> {
    return multi(of(...FRUITS));
  }
}

describe('streams whose type the metadata does not name', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await RestApplication.build({ classes: [Untyped] }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
  });
  afterAll(() => server.close());

  it('is the case this spec is about: the metadata says Object for every stream method', () => {
    for (const name of ['multi', 'generator', 'iterable', 'whole'])
      expect(readDesignType('design:returntype', Untyped.prototype, name)).toBe(Object);
    expect(readDesignType('design:returntype', Untyped.prototype, 'array')).toBe(Array);
  });

  it.each(['multi', 'generator', 'iterable'])(
    'marks the JSON array of a %s as items, and the client emits them one by one',
    async (name) => {
      const response = await fetch(`${server.url}/untyped/${name}`);
      expect(response.headers.get('stream-items')).toBe('json-array');
      expect(await response.json()).toEqual(FRUITS);
      const client = RestClient.create(Untyped, { baseUrl: server.url });
      const call = { multi: client.multi(), generator: client.generator(), iterable: client.iterable() }[name]!;
      expect(await lastValueFrom(call.pipe(toArray()))).toEqual(FRUITS);
    },
  );

  it('leaves a single value that is an array as one value, with no mark', async () => {
    for (const name of ['whole', 'array'])
      expect((await fetch(`${server.url}/untyped/${name}`)).headers.has('stream-items')).toBe(false);
    const client = RestClient.create(Untyped, { baseUrl: server.url });
    expect(await lastValueFrom(client.whole().pipe(toArray()))).toEqual([FRUITS]);
    expect(await lastValueFrom(client.array().pipe(toArray()))).toEqual([FRUITS]);
  });

  it('warns, naming the method, when the OpenAPI document cannot tell a documented schema of items from one of the body', () => {
    const records: LogRecord[] = [];
    const previous = logging.setSink((record) => records.push(record));
    try {
      RestApplication.build({ classes: [Documented] }).openapi();
    } finally {
      logging.setSink(previous);
    }
    const warning = records.find((record) => record.level === 'WARN' && record.message.includes('Documented#list'));
    expect(warning?.message).toContain('import Multi as a value');
  });
});
