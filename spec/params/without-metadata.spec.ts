import * as ts from 'typescript';
import * as lib from '../../lib';

/** A resource compiled the way esbuild or `isolatedModules` transpilers do it: decorators kept, no `design:*` metadata. */
const source = `
import { BeanParam, Body, Context, GET, Path, POST, RestPath, RestQuery, RestHeader, UriInfo } from 'rxrest';

export class Fruit {
  name = '';
  shout() { return this.name.toUpperCase(); }
}

export class Paging {
  @RestQuery({ type: Number }) limit!: number;
  @RestHeader('X-Tag', { type: [String] }) tags!: string[];
}

@Path('plain')
export class PlainResource {
  @GET @Path('{id}')
  get(@RestPath({ type: Number }) id: number, @RestQuery({ type: [Number] }) n: number[], @Context({ type: UriInfo }) uri: UriInfo) {
    return { id, plusOne: id + 1, sum: n.reduce((a, b) => a + b, 0), path: uri.path };
  }

  @GET @Path('bean/list')
  list(@BeanParam({ type: Paging }) paging: Paging) {
    return { limit: paging.limit, tags: paging.tags, isPaging: paging instanceof Paging };
  }

  @POST
  add(@Body({ type: Fruit }) fruit: Fruit) {
    return fruit.shout();
  }
}
`;

const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  experimentalDecorators: true,
  emitDecoratorMetadata: false,
  useDefineForClassFields: false,
};

function load(): Record<string, Function> {
  const output = ts.transpileModule(source, { compilerOptions }).outputText;
  const module = { exports: {} as Record<string, Function> };
  const requireShim = (id: string) => (id === 'rxrest' ? lib : require(id));
  new Function('exports', 'require', 'module', output)(module.exports, requireShim, module);
  return module.exports;
}

describe('parameters without decorator metadata', () => {
  const compiled = load();

  it('is compiled without design:paramtypes', () => {
    const output = ts.transpileModule(source, { compilerOptions }).outputText;
    expect(output).toContain('__decorate');
    expect(output).not.toContain('design:');
  });

  it('builds and serves a resource whose types are given explicitly', async () => {
    const app = lib.RestApplication.build({
      classes: [compiled.PlainResource],
      config: lib.resolveConfig({ overrides: {} }),
    });
    const get = await app.fetch(new Request('http://localhost/plain/41?n=1&n=2'));
    expect(await get.json()).toEqual({ id: 41, plusOne: 42, sum: 3, path: '/plain/41' });
    const bean = await app.fetch(
      new Request('http://localhost/plain/bean/list?limit=5', { headers: { 'x-tag': 'a, b' } }),
    );
    expect(await bean.json()).toEqual({ limit: 5, tags: ['a', 'b'], isPaging: true });
    const post = await app.fetch(
      new Request('http://localhost/plain', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"kiwi"}',
      }),
    );
    expect(await post.text()).toBe('KIWI');
    expect((await app.fetch(new Request('http://localhost/plain/x'))).status).toBe(404);
  });
});
