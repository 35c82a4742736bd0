import {
  ApplicationPath,
  Application,
  RequestContext,
  ServerRequestFilter,
  Consumes,
  DELETE,
  DefinitionError,
  GET,
  HttpMethod,
  Path,
  POST,
  Produces,
  ResponseStatus,
  QueryParam,
  RestPath,
  RestQuery,
  RestApplication,
  resolveConfig,
  logging,
  type LogRecord,
} from '../../lib';
import { buildApp, call } from '../support/app';

describe('RestApplication.build', () => {
  it('joins class and method paths, and serves templates with regexes as the spec example says', async () => {
    @Path('hello')
    class Hello {
      @GET root() {
        return 'root';
      }
      @GET @Path('{name}/{age:\\d+}') person(@RestPath() name: string, @RestPath() age: number) {
        return `${name} is ${age + 1 - 1}`;
      }
    }
    const app = buildApp([Hello]);
    expect(await (await call(app, '/hello/stef/23')).text()).toBe('stef is 23');
    expect(await (await call(app, '/hello')).text()).toBe('root');
    expect((await call(app, '/hello/stef/0x23')).status).toBe(404);
  });

  it('prefixes every endpoint with @ApplicationPath, or else with framework.rest.path', async () => {
    @Path('ping')
    class Ping {
      @GET ping() {
        return 'pong';
      }
    }
    @ApplicationPath('/api')
    class Api extends Application {}
    const annotated = buildApp([Ping], {}, { application: new Api() });
    expect((await call(annotated, '/api/ping')).status).toBe(200);
    expect((await call(annotated, '/ping')).status).toBe(404);
    const configured = buildApp([Ping], { 'framework.rest.path': '/root' });
    expect(await (await call(configured, '/root/ping')).text()).toBe('pong');
  });

  it('routes custom HTTP methods declared with @HttpMethod', async () => {
    const CHEESE = HttpMethod('CHEESE');
    @Path('custom')
    class Custom {
      @CHEESE melt() {
        return 'melted';
      }
    }
    const app = buildApp([Custom]);
    const response = await call(app, '/custom', { method: 'CHEESE' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('melted');
  });

  it('lists every definition problem at once, naming class and method', () => {
    @Path('broken')
    class Broken {
      @GET @POST twice() {
        return '';
      }
      @GET @Path('{id}') wrongVariable(@RestPath('nope') id: string) {
        return id;
      }
      @POST twoBodies(a: object, b: object) {
        return [a, b];
      }
      @GET @Path('typed') @Produces('not a type') badMedia() {
        return '';
      }
      @GET @Path('{unclosed') badTemplate() {
        return '';
      }
      @GET @Path('status') @ResponseStatus(1000) badStatus() {
        return '';
      }
    }
    let error: unknown;
    try {
      buildApp([Broken]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DefinitionError);
    const message = (error as DefinitionError).message;
    expect(message).toContain('Broken#twice');
    expect(message).toContain('exactly one');
    expect(message).toContain('Broken#wrongVariable');
    expect(message).toContain('"nope" is not a variable');
    expect(message).toContain('Broken#twoBodies');
    expect(message).toContain('Broken#badMedia');
    expect(message).toContain('Broken#badTemplate');
    expect(message).toContain('Broken#badStatus: @ResponseStatus(1000) is not an HTTP status');
    expect((error as DefinitionError).problems.length).toBeGreaterThanOrEqual(6);
  });

  it('fails on duplicate endpoints, also when only variable names differ, naming every method', () => {
    @Path('v1')
    class First {
      @GET @Path('{a}') one(@RestPath() a: string) {
        return a;
      }
    }
    @Path('v1')
    class Second {
      @GET @Path('{b}') other(@RestPath() b: string) {
        return b;
      }
    }
    expect(() => buildApp([First, Second])).toThrow(
      /GET \/v1\/\{a\} is declared by :\nFirst#one consumes \*, produces \*\nSecond#other/,
    );
  });

  it('only warns about duplicates when framework.rest.fail-on-duplicate=false', async () => {
    @Path('dup')
    class A {
      @GET one() {
        return 'a';
      }
    }
    @Path('dup')
    class B {
      @GET two() {
        return 'b';
      }
    }
    const records: LogRecord[] = [];
    const previous = logging.setSink((record) => records.push(record));
    try {
      const app = buildApp([A, B], { 'framework.rest.fail-on-duplicate': false });
      expect((await call(app, '/dup')).status).toBe(200);
    } finally {
      logging.setSink(previous);
    }
    expect(records.some((r) => r.level === 'WARN' && r.message.includes('A#one') && r.message.includes('B#two'))).toBe(
      true,
    );
  });

  it('treats methods that differ in @Consumes as distinct endpoints', () => {
    @Path('c')
    class C {
      @POST @Consumes('application/json') json(body: object) {
        return body;
      }
      @POST @Consumes('text/plain') text(body: string) {
        return body;
      }
    }
    expect(() => buildApp([C])).not.toThrow();
  });

  it('requires a name on the specification-style parameter decorators', () => {
    @Path('q')
    class Q {
      @GET get(@QueryParam('') q: string) {
        return q;
      }
    }
    expect(() => buildApp([Q])).toThrow(/Q#get/);
  });

  it('refuses invalid configuration values, naming key, value and expectation', () => {
    @Path('x')
    class X {
      @GET get() {
        return '';
      }
    }
    expect(() =>
      RestApplication.build({ classes: [X], overrides: { 'framework.http.limits.max-body-size': '10 megabytes' } }),
    ).toThrow(/framework\.http\.limits\.max-body-size.*10 megabytes/s);
  });

  it('serves only the classes an Application lists in getClasses()', async () => {
    @Path('listed')
    class Listed {
      @GET get() {
        return 'listed';
      }
    }
    @Path('other')
    class Other {
      @GET get() {
        return 'other';
      }
    }
    class Listing extends Application {
      override getClasses() {
        return [Listed];
      }
    }
    const app = RestApplication.build({
      application: new Listing(),
      classes: [Listed, Other],
      config: resolveConfig({}),
    });
    expect((await call(app, '/listed')).status).toBe(200);
    expect((await call(app, '/other')).status).toBe(404);
    expect(app.endpoints.map((e) => e.handler)).toEqual(['get']);
  });

  it('converts query parameters named after the method parameter', async () => {
    @Path('sum')
    class Sum {
      @GET add(@RestQuery() a: number, @RestQuery() b: number) {
        return { total: a + b };
      }
      @DELETE clear() {
        return undefined;
      }
    }
    const app = buildApp([Sum]);
    expect(await (await call(app, '/sum?a=2&b=40')).json()).toEqual({ total: 42 });
    expect((await call(app, '/sum', { method: 'DELETE' })).status).toBe(204);
  });

  it('names the filter and parameter it cannot inject, and what it expected', () => {
    class Odd {
      @ServerRequestFilter() check(_ctx: RequestContext, _map: Map<string, string>) {}
    }
    @Path('odd')
    class OddResource {
      @GET get() {
        return '';
      }
    }
    expect(() => buildApp([Odd, OddResource])).toThrow(
      /Odd#check: parameter 1 of type Map cannot be injected: expected a context type/,
    );
  });
});
