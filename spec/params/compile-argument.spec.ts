import { Context as HonoContext } from 'hono';
import { z } from 'zod';
import {
  BeanParam,
  DateFormat,
  DefaultValue,
  DefinitionError,
  DELETE,
  GET,
  HttpHeaders,
  Path,
  POST,
  Provider,
  ResourceInfo,
  RestApplication,
  RestCookie,
  RestForm,
  RestHeader,
  RestMatrix,
  RestPath,
  RestQuery,
  Separator,
  UriInfo,
  resolveConfig,
  type ParamConverterProvider,
} from '../../lib';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

@Provider()
class PointConverters implements ParamConverterProvider {
  getConverter(type: unknown) {
    return type === Point
      ? { fromString: (text: string) => new Point(...(text.split(':').map(Number) as [number, number])) }
      : undefined;
  }
}

class Paging {
  @RestQuery() @DefaultValue('10') limit!: number;
  @RestHeader('X-Page') page!: string;
}

class Search {
  @RestPath() term!: string;
  @BeanParam() paging!: Paging;
  @RestQuery({ type: [String] }) @Separator(',') tags!: string[];
}

@Path('p')
class ParamResource {
  @GET
  @Path('num/{id}')
  num(@RestPath() id: number, @RestQuery() q: number, @RestMatrix() m: number) {
    return { id, q, m };
  }

  @GET
  @Path('twice/{x}/{y}/{x}')
  twice(@RestPath() x: string, @RestPath() y: string, uri: UriInfo) {
    return { x, y, params: uri.pathParameters };
  }

  @GET
  @Path('spaced/{ id }/{ n }')
  spacedGet(@RestPath() id: string, @RestPath() n: number) {
    return { get: id, n };
  }

  @DELETE
  @Path('spaced/{id}/{n}')
  spacedDelete(@RestPath() id: string, @RestPath() n: number) {
    return { delete: id, n };
  }

  @POST
  @Path('bad')
  bad(@RestHeader('X-N') n: number, @RestCookie() c: number, @RestForm() f: number) {
    return { n, c, f };
  }

  @GET
  @Path('defaults')
  defaults(
    @RestQuery() @DefaultValue('1') times: number,
    @RestQuery({ type: [Number] }) @DefaultValue('5') list: number[],
    @RestQuery() absent: string,
  ) {
    return { times, list, absent: absent === undefined };
  }

  @GET
  @Path('sep')
  sep(@RestQuery({ type: [String] }) @Separator(',') name: string[]) {
    return name;
  }

  @GET
  @Path('sorted')
  sorted(
    @RestQuery({ type: Number, collection: 'sorted-set' }) n: Set<number>,
    @RestQuery({ type: String, collection: 'set' }) s: Set<string>,
  ) {
    return { n: [...n], s: [...s] };
  }

  @GET
  @Path('all')
  all(@RestQuery() everything: URLSearchParams, @RestQuery({ type: Map }) map: Map<string, string[]>) {
    return { text: everything.toString(), a: map.get('a') };
  }

  @GET
  @Path('headers')
  headers(@RestHeader('X-A', { type: [String] }) values: string[]) {
    return values;
  }

  @GET
  @Path('required')
  required(@RestQuery({ required: true }) must: string) {
    return must;
  }

  @GET
  @Path('zod')
  zod(@RestQuery({ schema: z.coerce.number().int().min(1) }) n: number) {
    return n;
  }

  @GET
  @Path('point')
  point(@RestQuery() at: Point) {
    return at;
  }

  @GET
  @Path('date')
  date(@RestQuery() @DateFormat('dd-MM-yyyy') day: Date) {
    return [day.getFullYear(), day.getMonth() + 1, day.getDate()];
  }

  @GET
  @Path('bean/{term}')
  bean(@BeanParam() search: Search) {
    return {
      isSearch: search instanceof Search,
      term: search.term,
      limit: search.paging.limit,
      page: search.paging.page,
      tags: search.tags,
    };
  }

  @GET
  @Path('ctx/{id}')
  ctx(id: string, uri: UriInfo, headers: HttpHeaders, info: ResourceInfo, request: Request, hono: HonoContext) {
    return {
      path: uri.path,
      params: uri.pathParameters,
      query: uri.queryParameters.get('q'),
      base: uri.baseUri.toString(),
      link: uri.absolutePathBuilder().path('{sub}').queryParam('v', 1).build('a b').toString(),
      agent: headers.headerString('user-agent'),
      method: info.resourceMethod,
      cls: info.resourceClass?.name,
      web: request.url,
      hono: hono instanceof HonoContext,
    };
  }
}

const app = RestApplication.build({
  classes: [ParamResource, PointConverters],
  config: resolveConfig({ overrides: {} }),
});
const get = async (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost/p/${path}`, init));
const json = async (path: string, init?: RequestInit) => (await get(path, init)).json();

describe('compileArgument', () => {
  it('converts path, query and matrix values and answers 404 when they do not convert', async () => {
    expect(await json('num;m=3/1?q=2')).toEqual({ id: 1, q: 2, m: 3 });
    expect((await get('num/x')).status).toBe(404);
    expect((await get('num/1?q=x')).status).toBe(404);
    expect((await get('num;m=x/1')).status).toBe(404);
  });

  it('reads path parameters of templates that differ only in spacing, which share one route', async () => {
    expect(await json('spaced/a/1')).toEqual({ get: 'a', n: 1 });
    expect(await json('spaced/b/2', { method: 'DELETE' })).toEqual({ delete: 'b', n: 2 });
  });

  it('reads query parameters alike from short queries (scanned per name) and long ones (split once)', async () => {
    const padding = `pad=${'x'.repeat(300)}`;
    expect(await json('num;m=3/1?q=2')).toEqual({ id: 1, q: 2, m: 3 });
    expect(await json(`num;m=3/1?${padding}&q=2&${padding}`)).toEqual({ id: 1, q: 2, m: 3 });
    expect(await json(`sep?name=a,b&${padding}&name=c`)).toEqual(['a', 'b', 'c']);
    expect(await json('sep?name=a,b&x=1&name=c')).toEqual(['a', 'b', 'c']);
  });

  it('reads a path parameter used twice in its template as its last value, decoded like the UriInfo path parameters', async () => {
    expect(await json('twice/a/b%2Fc/z%25')).toEqual({ x: 'z%', y: 'b/c', params: { x: 'z%', y: 'b/c' } });
  });

  it('answers 400 when header, cookie or form values do not convert', async () => {
    const send = (headers: Record<string, string>, body: string) =>
      get('bad', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-n': '1', cookie: 'c=2', ...headers },
        body,
      });
    expect(await (await send({}, 'f=3')).json()).toEqual({ n: 1, c: 2, f: 3 });
    expect((await send({ 'x-n': 'x' }, 'f=3')).status).toBe(400);
    expect((await send({ cookie: 'c=x' }, 'f=3')).status).toBe(400);
    expect((await send({}, 'f=x')).status).toBe(400);
  });

  it('applies @DefaultValue to absent values, collections included, and leaves others undefined', async () => {
    expect(await json('defaults')).toEqual({ times: 1, list: [5], absent: true });
    expect(await json('defaults?times=3&list=1&list=2')).toEqual({ times: 3, list: [1, 2], absent: true });
  });

  it('splits values on @Separator and collects repeated parameters', async () => {
    expect(await json('sep?name=foo,bar&name=one,two,three&name=yolo')).toEqual([
      'foo',
      'bar',
      'one',
      'two',
      'three',
      'yolo',
    ]);
    expect(await json('sep')).toEqual([]);
  });

  it('collects sets and sorted sets in natural order', async () => {
    expect(await json('sorted?n=10&n=2&n=33&n=2&s=b&s=a&s=b')).toEqual({ n: [2, 10, 33], s: ['b', 'a'] });
  });

  it('gives every query parameter to a query map', async () => {
    expect(await json('all?a=1&b=2&a=3')).toEqual({ text: 'a=1&b=2&a=3', a: ['1', '3'] });
  });

  it('splits a repeated header into a collection', async () => {
    const headers = new Headers();
    headers.append('x-a', 'a');
    headers.append('x-a', 'b');
    expect(await json('headers', { headers })).toEqual(['a', 'b']);
  });

  it('answers 400 when a required parameter is absent', async () => {
    expect((await get('required')).status).toBe(400);
    expect(await (await get('required?must=yes')).text()).toBe('yes');
  });

  it('answers 400 with problem violations when a zod schema refuses the value', async () => {
    const response = await get('zod?n=0');
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { violations: { in: string; field: string }[] };
    expect(problem.violations[0]).toMatchObject({ in: 'query', field: 'n' });
    expect(await json('zod?n=4')).toBe(4);
  });

  it('uses a registered ParamConverterProvider', async () => {
    expect(await json('point?at=1:2')).toEqual({ x: 1, y: 2 });
  });

  it('parses dates with the @DateFormat pattern', async () => {
    expect(await json('date?day=08-08-1984')).toEqual([1984, 8, 8]);
    expect((await get('date?day=1984-08-08')).status).toBe(404);
  });

  it('fills @BeanParam classes, nested beans, defaults and separators included', async () => {
    expect(await json('bean/cheese?tags=a,b', { headers: { 'x-page': '2' } })).toEqual({
      isSearch: true,
      term: 'cheese',
      limit: 10,
      page: '2',
      tags: ['a', 'b'],
    });
  });

  it('injects UriInfo, HttpHeaders, ResourceInfo, the Web Request and the Hono Context by type', async () => {
    const body = await json('ctx/7?q=1', { headers: { 'user-agent': 'spec' } });
    expect(body).toEqual({
      path: '/p/ctx/7',
      params: { id: '7' },
      query: '1',
      base: 'http://localhost/',
      link: 'http://localhost/p/ctx/7/a%20b?v=1',
      agent: 'spec',
      method: 'ctx',
      cls: 'ParamResource',
      web: 'http://localhost/p/ctx/7?q=1',
      hono: true,
    });
  });

  it('fails the build naming class, method and parameter for a type it cannot convert', () => {
    class Opaque {
      constructor(
        readonly a: number,
        readonly b: number,
      ) {}
    }
    @Path('bad')
    class BadResource {
      @GET list(@RestQuery() opaque: Opaque) {
        return opaque;
      }
    }
    expect(() => RestApplication.build({ classes: [BadResource], config: resolveConfig({ overrides: {} }) })).toThrow(
      DefinitionError,
    );
    expect(() => RestApplication.build({ classes: [BadResource], config: resolveConfig({ overrides: {} }) })).toThrow(
      /BadResource#list\(opaque\): the type Opaque of query parameter "opaque" cannot be converted/,
    );
  });
});
