import { map, of } from 'rxjs';
import { parse } from 'yaml';
import { z } from 'zod';
import {
  APIResponse,
  BeanParam,
  Consumes,
  DefaultValue,
  FileUpload,
  GET,
  Hidden,
  Operation,
  Path,
  POST,
  Produces,
  ResponseStatus,
  Multi,
  RestCookie,
  RestForm,
  RestHeader,
  RestPath,
  RestQuery,
  Tag,
  multi,
} from '../../lib';
import { buildSamples } from '../../samples/app';
import { buildApp, call } from '../support/app';
import { validateOpenApi } from '../support/validate-openapi';

enum Color {
  Red = 'red',
  Green = 'green',
}

class Item {
  static readonly schema = z.object({
    name: z.string().min(1),
    price: z.number().nonnegative(),
    added: z.date().optional(),
  });
  name = '';
  price = 0;
}

class Paging {
  @RestQuery() page!: number;
  @RestHeader('x-trace') trace!: string;
}

@Path('shop')
@Tag('Shop')
class ShopResource {
  @GET
  @Path('items/{id: [0-9]+}')
  @Produces('application/json')
  @Operation({ summary: 'One item', description: 'By its number' })
  @APIResponse({ schema: Item, description: 'The item' })
  @APIResponse({ status: 404, description: 'No such item' })
  one(
    @RestPath() id: number,
    @RestQuery() @DefaultValue('10') limit: number,
    @RestQuery({ type: [String] }) tags: string[],
    @RestQuery({ type: Color }) color: Color,
    @RestHeader('x-when') when: Date,
    @RestCookie() session: string,
  ): Item {
    return Object.assign(new Item(), { name: `${id}${limit}${tags}${color}${when}${session}` });
  }

  @POST
  @Path('items')
  @Consumes('application/json')
  @Produces('application/json')
  @ResponseStatus(201)
  add(item: Item): Item {
    return item;
  }

  @POST
  @Path('upload')
  @Consumes('multipart/form-data')
  @Produces('text/plain')
  upload(@RestForm() description: string, @RestForm() file: FileUpload): string {
    return `${description} ${file.fileName}`;
  }

  @GET
  @Path('events')
  @Produces('text/event-stream')
  @APIResponse({ schema: Item })
  events(): Multi<Item> {
    return multi(of(new Item()));
  }

  @GET
  @Path('lines')
  @Produces('application/x-ndjson')
  @APIResponse({ schema: Item })
  lines(): Multi<Item> {
    return multi(of(new Item()));
  }

  @GET
  @Path('all')
  @Produces('application/json')
  @APIResponse({ schema: Item })
  all(): Multi<Item> {
    return multi(of(1, 2).pipe(map(() => new Item())));
  }

  @GET
  @Path('paged')
  @Produces('text/plain')
  paged(@BeanParam() paging: Paging): string {
    return `${paging.page}`;
  }

  @GET
  @Path('secret')
  @Hidden
  secret(): string {
    return 'hidden';
  }
}

const app = buildApp([ShopResource], {
  'framework.rest.path': '/api',
  'framework.openapi.info.title': 'Shop',
  'framework.openapi.info.version': '1.2.3',
});
type Operation = {
  operationId: string;
  tags: string[];
  summary?: string;
  description?: string;
  parameters?: unknown[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, unknown>;
};
const document = app.openapi() as {
  openapi: string;
  info: unknown;
  servers: unknown;
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, unknown> };
};
const operation = (path: string, method: string) => document.paths[path]![method]!;
// What a client may send (zod's input view) and what the server writes (its output view: no other properties).
const ITEM_IN = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    price: { type: 'number', minimum: 0 },
    added: { type: 'string', format: 'date-time' },
  },
  required: ['name', 'price'],
};
const ITEM = { ...ITEM_IN, additionalProperties: false };

describe('RestApp.openapi()', () => {
  it('is a valid OpenAPI 3.2 document', () => {
    expect(document.openapi).toBe('3.2.0');
    expect(validateOpenApi(document)).toEqual({ valid: true, version: '3.2' });
  });

  it('takes info from framework.openapi.info.* and the server from framework.rest.path', () => {
    expect(document.info).toEqual({ title: 'Shop', version: '1.2.3' });
    expect(document.servers).toEqual([{ url: '/api' }]);
  });

  it('describes path, query, header and cookie parameters with their types, patterns, lists, enums and defaults', () => {
    const one = operation('/shop/items/{id}', 'get');
    expect(one).toMatchObject({
      operationId: 'ShopResource_one',
      tags: ['Shop'],
      summary: 'One item',
      description: 'By its number',
    });
    expect(one.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'number', pattern: '^[0-9]+$' } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'number', default: 10 } },
      { name: 'tags', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } } },
      { name: 'color', in: 'query', required: false, schema: { enum: ['red', 'green'] } },
      { name: 'x-when', in: 'header', required: false, schema: { type: 'string', format: 'date-time' } },
      { name: 'session', in: 'cookie', required: false, schema: { type: 'string' } },
    ]);
  });

  it('documents @APIResponse answers and the framework errors as shared problem responses', () => {
    const { responses } = operation('/shop/items/{id}', 'get');
    expect(responses['200']).toEqual({ description: 'The item', content: { 'application/json': { schema: ITEM } } });
    // The framework's problem details and a thrown exception's text can still come at a status it answers itself.
    expect(responses['404']).toEqual({
      description: 'No such item',
      content: {
        'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
        'text/plain': { schema: { type: 'string' } },
      },
    });
    expect(responses['400']).toEqual({ $ref: '#/components/responses/400' });
    expect(document.components.responses['413']).toMatchObject({
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    });
  });

  it('describes a zod body as what a client may send, under the @ResponseStatus', () => {
    const add = operation('/shop/items', 'post');
    expect(add.requestBody).toEqual({ required: true, content: { 'application/json': { schema: ITEM_IN } } });
    expect(Object.keys(add.responses)).toEqual(expect.arrayContaining(['201', '413', '415']));
  });

  it('describes a multipart form with its binary parts', () => {
    expect(operation('/shop/upload', 'post').requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              description: { type: 'string' },
              file: { type: 'string', contentMediaType: 'application/octet-stream' },
            },
          },
        },
      },
    });
  });

  it('describes streams item by item: SSE events carrying JSON data, NDJSON lines, a JSON array', () => {
    expect(operation('/shop/events', 'get').responses['200']).toEqual({
      description: 'OK',
      content: {
        'text/event-stream': {
          itemSchema: {
            type: 'object',
            properties: {
              data: { type: 'string', contentMediaType: 'application/json', contentSchema: ITEM },
              event: { type: 'string' },
              id: { type: 'string' },
              retry: { type: 'integer', minimum: 0 },
            },
          },
        },
      },
    });
    expect(operation('/shop/lines', 'get').responses['200']).toEqual({
      description: 'OK',
      content: { 'application/x-ndjson': { itemSchema: ITEM } },
    });
    expect(operation('/shop/all', 'get').responses['200']).toEqual({
      description: 'OK',
      content: { 'application/json': { schema: { type: 'array', items: ITEM } } },
    });
  });

  it('expands bean parameters and leaves @Hidden endpoints out', () => {
    expect(operation('/shop/paged', 'get').parameters).toEqual([
      { name: 'page', in: 'query', required: false, schema: { type: 'number' } },
      { name: 'x-trace', in: 'header', required: false, schema: { type: 'string' } },
    ]);
    expect(document.paths['/shop/secret']).toBeUndefined();
  });
});

describe('GET /q/openapi', () => {
  it('serves the document as YAML by default, and as JSON for Accept: application/json or ?format=json', async () => {
    const yaml = await call(app, '/q/openapi');
    expect(yaml.headers.get('content-type')).toBe('application/yaml;charset=UTF-8');
    expect(parse(await yaml.text())).toEqual(document);
    const json = await call(app, '/q/openapi', { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(await json.json()).toEqual(document);
    expect(await (await call(app, '/q/openapi?format=json')).json()).toEqual(document);
  });

  it('moves with framework.openapi.path and goes with framework.openapi.enabled=false', async () => {
    const moved = buildApp([ShopResource], { 'framework.openapi.path': '/docs/api' });
    expect((await call(moved, '/docs/api')).status).toBe(200);
    expect((await call(moved, '/q/openapi')).status).toBe(404);
    expect((await call(buildApp([ShopResource], { 'framework.openapi.enabled': false }), '/q/openapi')).status).toBe(
      404,
    );
  });
});

describe('the samples document', () => {
  const samples = buildSamples({}).openapi() as typeof document;

  it('is valid OpenAPI 3.2 and describes every sample endpoint', () => {
    expect(validateOpenApi(samples)).toEqual({ valid: true, version: '3.2' });
    expect(Object.keys(samples.paths)).toEqual(
      expect.arrayContaining(['/fruits', '/cheeses/{type}{variant}', '/streams/ticks', '/multipart']),
    );
  });

  it('describes a matrix parameter as a path parameter of style matrix after the last segment', () => {
    expect(samples.paths['/cheeses/{type}{variant}']!.post!.parameters).toContainEqual({
      name: 'variant',
      in: 'path',
      style: 'matrix',
      required: true,
      schema: { type: 'string' },
    });
  });

  it('describes /streams/ticks as SSE events, /fruits POST by the Fruit schema, /multipart as a form with a binary image', () => {
    expect(samples.paths['/streams/ticks']!.get!.responses['200']).toMatchObject({
      content: { 'text/event-stream': { itemSchema: { type: 'object' } } },
    });
    expect(samples.paths['/fruits']!.post!.requestBody).toMatchObject({
      content: { 'application/json': { schema: { required: ['name'] } } },
    });
    expect(samples.paths['/multipart']!.post!.requestBody).toMatchObject({
      content: {
        'multipart/form-data': { schema: { properties: { image: { contentMediaType: 'application/octet-stream' } } } },
      },
    });
  });

  it('describes a body of items (/fruits/import, a Multi of Fruit) item by item', () => {
    expect(samples.paths['/fruits/import']!.post!.requestBody).toEqual({
      required: true,
      content: {
        'application/x-ndjson': { itemSchema: expect.objectContaining({ type: 'object', required: ['name'] }) },
      },
    });
  });
});

describe('a resource compiled without decorator metadata', () => {
  // Decorators applied by hand, as esbuild-based tools leave them: no design:paramtypes, explicit types only.
  class Plain {
    find(id: number, limit: number, tags: string[], color: Color): string {
      return `${id}${limit}${tags}${color}`;
    }
  }
  Path('plain')(Plain);
  const method = Object.getOwnPropertyDescriptor(Plain.prototype, 'find')!;
  GET(Plain.prototype, 'find', method);
  Path('{id}')(Plain.prototype, 'find', method);
  RestPath('id', { type: Number })(Plain.prototype, 'find', 0);
  RestQuery('limit', { type: Number })(Plain.prototype, 'find', 1);
  RestQuery('tags', { type: [String] })(Plain.prototype, 'find', 2);
  RestQuery('color', { type: Color })(Plain.prototype, 'find', 3);

  @Path('typed')
  class Typed {
    @GET
    @Path('{id}')
    find(
      @RestPath() id: number,
      @RestQuery() limit: number,
      @RestQuery({ type: [String] }) tags: string[],
      @RestQuery({ type: Color }) color: Color,
    ): string {
      return `${id}${limit}${tags}${color}`;
    }
  }

  it('gets the same parameter schemas from explicit types as from metadata', () => {
    const parametersOf = (type: Function, path: string) =>
      (buildApp([type]).openapi() as typeof document).paths[path]!.get!.parameters;
    expect(parametersOf(Plain, '/plain/{id}')).toEqual(parametersOf(Typed, '/typed/{id}'));
    expect(parametersOf(Plain, '/plain/{id}')).toContainEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'number' },
    });
  });
});
