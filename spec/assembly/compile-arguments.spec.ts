import * as ts from 'typescript';
import * as lib from '../../lib';
import type { LogRecord } from '../../lib';

/** Resources transpiled the way esbuild-based tools do it: decorators kept, no `design:*` metadata: metadata is used when present, never required. */
const source = `
import { Context, GET, Path, POST, RestPath, RestQuery, UriInfo } from 'rxrest';

@Path('guess')
export class Guessing {
  @GET @Path('{id}')
  get(id: number, @RestQuery() limit: number) { return { id, limit, types: [typeof id, typeof limit] }; }

  @POST
  add(body: { n: number }) { return body; }
}

@Path('typed')
export class Typed {
  @GET @Path('{id}')
  get(@RestPath({ type: Number }) id: number, @Context({ type: UriInfo }) uri: UriInfo) { return { id, path: uri.path }; }
}

@Path('context')
export class UntypedContext {
  @GET get(@Context() uri: UriInfo) { return uri.path; }
}
`;

function load(): Record<string, Function> {
  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    experimentalDecorators: true,
    emitDecoratorMetadata: false,
    useDefineForClassFields: false,
  };
  const output = ts.transpileModule(source, { compilerOptions }).outputText;
  const module = { exports: {} as Record<string, Function> };
  const requireShim = (id: string) => (id === 'rxrest' ? lib : require(id));
  new Function('exports', 'require', 'module', output)(module.exports, requireShim, module);
  return module.exports;
}

function buildLogged(classes: Function[]): { app: lib.RestApp; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const previous = lib.logging.setSink((record) => records.push(record));
  try {
    return { app: lib.RestApplication.build({ classes, config: lib.resolveConfig({ overrides: {} }) }), records };
  } finally {
    lib.logging.setSink(previous);
  }
}

describe('RestApplication.build without decorator metadata', () => {
  const compiled = load();

  it('warns that metadata is missing, naming the method and each parameter read as a string', async () => {
    const { app, records } = buildLogged([compiled.Guessing]);
    const warnings = records.filter((record) => record.category === 'rxrest.build' && record.level === 'WARN');
    expect(warnings).toHaveLength(2);
    const [get, add] = warnings.map((record) => record.message);
    expect(get).toContain('Guessing#get: no decorator metadata');
    expect(get).toContain('id (path), limit (query)');
    expect(get).toContain('emitDecoratorMetadata');
    expect(add).toContain('Guessing#add');
    expect(add).toContain('body (body)');
    // What the warning says is what happens: the values stay strings.
    expect(await (await app.fetch(new Request('http://localhost/guess/7?limit=3'))).json()).toEqual({
      id: '7',
      limit: '3',
      types: ['string', 'string'],
    });
  });

  it('stays silent when every parameter type is given explicitly', async () => {
    const { app, records } = buildLogged([compiled.Typed]);
    expect(records.filter((record) => record.category === 'rxrest.build' && record.level === 'WARN')).toEqual([]);
    expect(await (await app.fetch(new Request('http://localhost/typed/7'))).json()).toEqual({
      id: 7,
      path: '/typed/7',
    });
  });

  it('fails the build for a @Context parameter whose type only metadata could give, saying how to fix it', () => {
    expect(() => buildLogged([compiled.UntypedContext])).toThrow(
      /UntypedContext#get\(uri\).*without decorator metadata.*@Context\(\{ type: UriInfo \}\)/s,
    );
  });
});

describe('RestApplication.build with decorator metadata', () => {
  it('warns about nothing for parameters whose types metadata gives', () => {
    @lib.Path('meta')
    class WithMetadata {
      @lib.GET @lib.Path('{id}') get(id: number, @lib.RestQuery() limit: number) {
        return { id, limit };
      }
    }
    const { records } = buildLogged([WithMetadata]);
    expect(records.filter((record) => record.category === 'rxrest.build' && record.level === 'WARN')).toEqual([]);
  });

  it('reads an undecorated parameter named after a template variable as that path parameter, converted by type (@RestPath optional)', async () => {
    @lib.Path('orders')
    class Orders {
      @lib.GET @lib.Path('{id}/lines/{line}') get(id: number, line: bigint) {
        return { id, isNumber: typeof id === 'number', line: String(line + 1n) };
      }
      @lib.PUT @lib.Path('{id}') put(id: number, note: string) {
        return `${id + 1}:${note}`;
      }
    }
    const { app } = buildLogged([Orders]);
    expect(await (await app.fetch(new Request('http://localhost/orders/41/lines/9'))).json()).toEqual({
      id: 41,
      isNumber: true,
      line: '10',
    });
    expect((await app.fetch(new Request('http://localhost/orders/x/lines/9'))).status).toBe(404);
    // A parameter not named after a variable is the body.
    const put = await app.fetch(
      new Request('http://localhost/orders/1', {
        method: 'PUT',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      }),
    );
    expect(await put.text()).toBe('2:hello');
  });
});
