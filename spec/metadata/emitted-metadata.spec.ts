// Every behaviour that reads decorator metadata — the client's streams and bindings, body binding, parameter
// conversion, the OpenAPI document — on one application (programs/typed-app.ts) built two ways: compiled by `tsc` as a
// user's build is (the whole program's types; compiled once, into a temp folder) and transpiled file by file as the
// specs themselves are (ts-jest's transpile mode, like swc or Vite). The metadata differs (a class imported with
// `import { type ... }` is `Function` under tsc, `Object` file by file); the answers over a real socket must not.
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { RestApplication, logging, type LogRecord, type RunningServer } from '../../lib';
import { RestClient } from '../../lib/client';
import { compileWithTsc } from '../support/tsc-build';
import { tempDir } from '../support/temp-dir';
import * as transpiled from './programs/typed-app';
import * as transpiledModel from './programs/typed-model';

type App = typeof transpiled;
type Model = typeof transpiledModel;
interface Build {
  readonly app: App;
  readonly model: Model;
}

const out = tempDir('tsc-build');
const builds = new Map<string, Build>([['transpiled file by file', { app: transpiled, model: transpiledModel }]]);

beforeAll(() => {
  const [app, model] = compileWithTsc(
    [
      'spec/metadata/programs/typed-app.ts',
      'spec/metadata/programs/typed-model.ts',
      'spec/metadata/programs/typed-order.ts',
    ],
    out,
  );
  builds.set('compiled by tsc', { app: require(app!) as App, model: require(model!) as Model });
}, 120_000);

/** The raw metadata, as the emitter wrote it (rxrest itself reads it through lib/metadata). */
const raw = (key: string, type: Function, name: string): unknown =>
  (Reflect as unknown as { getMetadata(key: string, target: object, name: string): unknown }).getMetadata(
    key,
    type.prototype as object,
    name,
  );

describe('the two builds', () => {
  it('really differ in their metadata: this spec is about what tsc writes where a transpiler writes Object', () => {
    const tsc = builds.get('compiled by tsc')!;
    const file = builds.get('transpiled file by file')!;
    for (const method of ['fruits', 'first']) {
      expect(raw('design:returntype', tsc.app.TypedResource, method)).toBe(Function);
      expect(raw('design:returntype', file.app.TypedResource, method)).toBe(Object);
    }
    // Color (a string enum), Level (a numeric one), Code, Code as a type, an interface, a number.
    expect(raw('design:paramtypes', tsc.app.TypedResource, 'params')).toEqual([
      String,
      Number,
      tsc.model.Code,
      Function,
      Object,
      Number,
    ]);
    expect(raw('design:paramtypes', file.app.TypedResource, 'params')).toEqual([
      Object,
      Object,
      file.model.Code,
      Object,
      Object,
      Number,
    ]);
  });

  it('give the same OpenAPI document, and the same warning about the Multi the metadata cannot name', () => {
    const documents = [...builds.values()].map(({ app }) => {
      const records: LogRecord[] = [];
      const previous = logging.setSink((record) => records.push(record));
      try {
        const document = RestApplication.build({ classes: [app.TypedResource] }).openapi();
        return { document, warnings: records.filter((record) => record.level === 'WARN').map((r) => r.message) };
      } finally {
        logging.setSink(previous);
      }
    });
    expect(documents[1]).toEqual(documents[0]);
    expect(documents[0]!.warnings).toEqual([expect.stringContaining('TypedResource#fruits')]);
  });
});

describe.each(['transpiled file by file', 'compiled by tsc'])('an application %s', (name) => {
  let server: RunningServer;
  let build: Build;
  beforeAll(async () => {
    build = builds.get(name)!;
    server = await RestApplication.build({ classes: [build.app.TypedResource, build.app.LooseResource] }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
  });
  afterAll(() => server.close());

  const client = () => RestClient.create(build.app.TypedResource, { baseUrl: server.url });
  const all = (call: Observable<unknown>) => lastValueFrom(call.pipe(toArray()));

  it('streams a Multi imported as a type, without @Produces, and its client emits each item', async () => {
    const fruits = client();
    for (const call of [fruits.fruits(), fruits.valueFruits(), fruits.generated(), fruits.lines()])
      expect(await all(call)).toStrictEqual([{ name: 'apple' }, { name: 'pear' }]);
  });

  it('answers one value for an Observable, a class or an array, bound to the class the metadata names', async () => {
    const fruits = client();
    expect(await all(fruits.first())).toStrictEqual([{ name: 'apple' }]);
    expect(await all(fruits.valueFirst())).toStrictEqual([{ name: 'apple' }]);
    const [fruit] = await all(fruits.fruit());
    expect(fruit).toBeInstanceOf(build.model.Fruit);
    expect((fruit as InstanceType<Model['Fruit']>).loud()).toBe('APPLE');
    expect(await all(fruits.array())).toStrictEqual([[{ name: 'apple' }, { name: 'pear' }]]);
  });

  it('binds a body to the class the metadata names, and leaves types it cannot name as plain JSON', async () => {
    const post = async (path: string, body: unknown) =>
      (await fetch(`${server.url}/typed/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.json())) as Record<string, string>;
    expect(await post('orders', { item: { name: 'fig' }, placed: '2026-01-02T03:04:05.000Z' })).toEqual({
      order: 'Order:{"item":{"name":"fig"},"placed":"2026-01-02T03:04:05.000Z"}',
      item: 'Object:{"name":"fig"}',
      placed: 'Date:"2026-01-02T03:04:05.000Z"',
    });
    expect(await post('items', { name: 'fig' })).toEqual({ item: 'Object:{"name":"fig"}' });
    expect(await post('shapes', { sides: 3 })).toEqual({ shape: 'Object:{"sides":3}' });
  });

  it('converts parameters by the types the metadata names, and leaves the others as text', async () => {
    const query = 'color=green&level=High&code=abc&typeOnly=abc&shape=round&count=7';
    const response = await fetch(`${server.url}/typed/params?${query}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      color: 'string:green',
      level: 'number:2',
      code: 'Code:{"text":"abc"}',
      typeOnly: 'string:abc',
      shape: 'string:round',
      count: 'number:7',
    });
  });

  it('reads a numeric enum parameter without { type } as the compiler typed it: a number under tsc, text file by file', async () => {
    const level = await fetch(`${server.url}/loose?level=2`).then((response) => response.json());
    expect(level).toEqual({ level: name === 'compiled by tsc' ? 'number:2' : 'string:2' });
  });
});
