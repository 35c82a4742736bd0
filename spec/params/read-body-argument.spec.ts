import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { firstValueFrom, Observable, reduce } from 'rxjs';
import {
  Body,
  Consumes,
  DefinitionError,
  JsonArray,
  JsonCreator,
  JsonObject,
  LocalFile,
  Path,
  POST,
  RestApplication,
  resolveConfig,
} from '../../lib';
import { tempDir } from '../support/temp-dir';
import { until } from '../support/until';

class Fruit {
  name = '';
  shout(): string {
    return this.name.toUpperCase();
  }
}

class Money {
  constructor(readonly cents: number) {}
  @JsonCreator()
  static of(json: { cents: number }): Money {
    return new Money(json.cents * 100);
  }
}

const seen: { file?: LocalFile; content?: string } = {};

@Path('b')
class BodyResource {
  @POST
  @Path('file')
  async file(@Body({ type: LocalFile }) file: LocalFile) {
    seen.file = file;
    seen.content = readFileSync(file.path, 'utf8');
    return `${file.size}`;
  }

  @POST
  @Path('bytes')
  bytes(@Body({ type: Uint8Array }) body: Uint8Array) {
    return `${body instanceof Uint8Array}:${body.byteLength}`;
  }

  @POST
  @Path('buffer')
  buffer(@Body({ type: Buffer }) body: Buffer) {
    return `${Buffer.isBuffer(body)}:${body.toString('hex')}`;
  }

  @POST
  @Path('text')
  text(@Body({ type: String }) body: string) {
    return `[${body}]`;
  }

  @POST
  @Path('web-stream')
  async webStream(@Body({ type: ReadableStream }) body: ReadableStream<Uint8Array>) {
    return `${body instanceof ReadableStream}:${await new Response(body).text()}`;
  }

  @POST
  @Path('node-stream')
  async nodeStream(@Body({ type: Readable }) body: Readable) {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return `${body instanceof Readable}:${Buffer.concat(chunks).toString()}`;
  }

  @POST
  @Path('observable')
  async observable(@Body({ type: Observable }) body: Observable<Uint8Array>) {
    const total = await firstValueFrom(body.pipe(reduce((sum, chunk) => sum + chunk.byteLength, 0)));
    return `${total}`;
  }

  @POST
  @Path('number')
  number(@Body({ type: Number }) n: number) {
    return { n, type: typeof n };
  }

  @POST
  @Path('optional-number')
  optionalNumber(@Body({ type: Number, required: false }) n: number | undefined) {
    return { absent: n === undefined };
  }

  @POST
  @Path('boolean')
  boolean(@Body({ type: Boolean }) b: boolean) {
    return { b };
  }

  @POST
  @Path('bigint')
  bigint(@Body({ type: BigInt }) n: bigint) {
    return `${typeof n}:${n + 1n}`;
  }

  @POST
  @Path('object')
  object(@Body({ type: JsonObject }) body: JsonObject) {
    return body;
  }

  @POST
  @Path('array')
  array(@Body({ type: JsonArray }) body: JsonArray) {
    return body.length;
  }

  @POST
  @Path('fruit')
  fruit(@Body({ type: Fruit }) fruit: Fruit) {
    return { isFruit: fruit instanceof Fruit, shout: fruit.shout() };
  }

  @POST
  @Path('fruits')
  fruits(@Body({ type: [Fruit] }) fruits: Fruit[]) {
    return fruits.map((f) => f.shout());
  }

  @POST
  @Path('money')
  money(@Body({ type: Money }) money: Money) {
    return { isMoney: money instanceof Money, cents: money.cents };
  }

  @POST
  @Path('optional')
  optional(@Body({ type: Fruit, required: false }) fruit: Fruit | undefined) {
    return { absent: fruit === undefined };
  }
}

const uploads = tempDir('uploads');
const app = RestApplication.build({
  classes: [BodyResource],
  config: resolveConfig({ overrides: { 'framework.http.body.uploads-directory': uploads } }),
});
const post = (path: string, body: string | Uint8Array | undefined, type = 'application/octet-stream') =>
  Promise.resolve(
    app.fetch(
      new Request(`http://localhost/b/${path}`, {
        method: 'POST',
        body,
        headers: body === undefined ? {} : { 'content-type': type },
      }),
    ),
  );

describe('compileBodyReader', () => {
  it('saves a LocalFile body in the uploads directory and deletes it after the response', async () => {
    const response = await post('file', 'hello file');
    expect(await response.text()).toBe('10');
    expect(seen.content).toBe('hello file');
    expect(seen.file!.path.startsWith(uploads)).toBe(true);
    const path = seen.file!.path;
    await until(() => (existsSync(path) ? undefined : true), 'the body file to be deleted');
  });

  it('reads bytes, buffers and decoded text', async () => {
    expect(await (await post('bytes', new Uint8Array([1, 2, 3]))).text()).toBe('true:3');
    expect(await (await post('buffer', new Uint8Array([0xca, 0xfe]))).text()).toBe('true:cafe');
    expect(await (await post('text', 'Comté', 'text/plain')).text()).toBe('[Comté]');
  });

  it('hands over Web and Node streams and an Observable of chunks', async () => {
    expect(await (await post('web-stream', 'abc')).text()).toBe('true:abc');
    expect(await (await post('node-stream', 'xyz')).text()).toBe('true:xyz');
    expect(await (await post('observable', 'four')).text()).toBe('4');
  });

  it('reads primitives and answers 400 for text that is not one', async () => {
    expect(await (await post('number', '42', 'text/plain')).json()).toEqual({ n: 42, type: 'number' });
    expect(await (await post('boolean', 'true', 'text/plain')).json()).toEqual({ b: true });
    expect(await (await post('bigint', '9007199254740993', 'text/plain')).text()).toBe('bigint:9007199254740994');
    expect((await post('number', 'ten', 'text/plain')).status).toBe(400);
  });

  it('answers 400 for an empty required primitive or an absent required text, and gives undefined for an empty optional primitive', async () => {
    const empty = await post('number', ' ', 'text/plain');
    expect([empty.status, ((await empty.json()) as { code: string }).code]).toEqual([400, 'RXREST_MISSING_BODY']);
    expect(await (await post('optional-number', '', 'text/plain')).json()).toEqual({ absent: true });
    const absent = await post('text', undefined);
    expect([absent.status, ((await absent.json()) as { code: string }).code]).toEqual([400, 'RXREST_MISSING_BODY']);
    expect(await (await post('text', '', 'text/plain')).text()).toBe('[]');
  });

  it('checks JSON value types at runtime', async () => {
    expect(await (await post('object', '{"a":1}', 'application/json')).json()).toEqual({ a: 1 });
    expect((await post('object', '[1]', 'application/json')).status).toBe(400);
    expect(await (await post('array', '[1,2]', 'application/json')).json()).toBe(2);
    expect((await post('array', '{}', 'application/json')).status).toBe(400);
  });

  it('maps JSON to instances of the declared class so its methods work, arrays included', async () => {
    expect(await (await post('fruit', '{"name":"kiwi","extra":true}', 'application/json')).json()).toEqual({
      isFruit: true,
      shout: 'KIWI',
    });
    expect(await (await post('fruits', '[{"name":"a"},{"name":"b"}]', 'application/json')).json()).toEqual(['A', 'B']);
  });

  it('creates instances through a @JsonCreator static method', async () => {
    expect(await (await post('money', '{"cents":2}', 'application/json')).json()).toEqual({
      isMoney: true,
      cents: 200,
    });
  });

  it('reads +json media types as JSON and refuses other media types with 415', async () => {
    expect((await post('fruit', '{"name":"fig"}', 'application/merge-patch+json')).status).toBe(200);
    expect((await post('fruit', 'name=fig', 'text/plain')).status).toBe(415);
  });

  it('answers 400 for malformed JSON, gives undefined for an empty optional body and 400 for an empty required one', async () => {
    expect((await post('fruit', '{"name":', 'application/json')).status).toBe(400);
    expect(await (await post('optional', undefined)).json()).toEqual({ absent: true });
    expect((await post('fruit', '', 'application/json')).status).toBe(400);
  });

  it('answers 400 for a JSON null where a class (or a list of one) is declared, and an optional one is absent', async () => {
    for (const path of ['fruit', 'fruits', 'money']) {
      const refused = await post(path, 'null', 'application/json');
      expect([path, refused.status]).toEqual([path, 400]);
      expect(((await refused.json()) as { code: string }).code).toBe('RXREST_MISSING_BODY');
    }
    expect(await (await post('optional', ' null ', 'application/json')).json()).toEqual({ absent: true });
  });

  it('fails the build for a body class without a no-argument constructor or creator', () => {
    class Pair {
      constructor(
        readonly a: number,
        readonly b: number,
      ) {}
    }
    @Path('pairs')
    class PairResource {
      @POST @Consumes('application/json') add(@Body({ type: Pair }) pair: Pair) {
        return pair;
      }
    }
    expect(() => RestApplication.build({ classes: [PairResource], config: resolveConfig({ overrides: {} }) })).toThrow(
      DefinitionError,
    );
    expect(() => RestApplication.build({ classes: [PairResource], config: resolveConfig({ overrides: {} }) })).toThrow(
      /PairResource#add.*Pair needs a constructor without parameters or a static method marked @JsonCreator/,
    );
  });
});
