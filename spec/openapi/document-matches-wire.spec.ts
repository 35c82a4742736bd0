/**
 * The samples' OpenAPI document says what the server does, over a real socket: each case reads the document the
 * server serves at /q/openapi, sends the request it describes, and compares the answer (status, media type, body or
 * none) with what the document lists for it.
 */
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { devToken } from '../../samples/security/mint-token';

type Json = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; required: boolean; style?: string }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json; encoding?: Json }> };
  security?: Record<string, string[]>[];
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, unknown> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Json>; securitySchemes?: Record<string, Json> };
}

let server: RunningServer;
let base: string;
let document: Document;

beforeAll(async () => {
  server = await buildSamples({}).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  base = `http://127.0.0.1:${server.port}`;
  document = (await (await fetch(`${base}/q/openapi?format=json`)).json()) as Document;
});
afterAll(() => server.close());

const operation = (path: string, method: string): Operation => {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
  return found;
};

/** The response the document gives `operation` at `status`, its shared component looked up. */
function documented(op: Operation, status: number): { description?: string; content?: Record<string, unknown> } {
  const response = op.responses[String(status)];
  if (!response) throw new Error(`the document lists no ${status}`);
  if (!response.$ref) return response;
  return document.components.responses[response.$ref.split('/').pop()!] as typeof response;
}

const mediaTypesOf = (op: Operation, status: number) => Object.keys(documented(op, status).content ?? {});

/** One request over the socket; redirects are answers too. */
function exchange(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}${path}`, { redirect: 'manual', ...init });
}

const typeOf = (response: Response) => response.headers.get('content-type')?.split(';')[0] ?? null;

describe('error answers: what a thrown exception and the framework send', () => {
  it('lists text/plain beside problem JSON for a 404, and the server sends each', async () => {
    const op = operation('/stored-fruits/{id}', 'get');
    const thrown = await exchange('/stored-fruits/999');
    expect(thrown.status).toBe(404);
    expect(await thrown.text()).toBe('No stored fruit 999');
    const unconverted = await exchange('/stored-fruits/abc');
    expect(unconverted.status).toBe(404);
    expect(mediaTypesOf(op, 404)).toEqual(expect.arrayContaining([typeOf(thrown), typeOf(unconverted)]));
    expect([typeOf(thrown), typeOf(unconverted)]).toEqual(['text/plain', 'application/problem+json']);
  });

  it('lists text/plain for a thrown BadRequestException, which the server sends', async () => {
    const reply = await exchange('/errors/bad-request');
    expect(reply.status).toBe(400);
    expect(mediaTypesOf(operation('/errors/bad-request', 'get'), 400)).toContain(typeOf(reply));
  });

  it("documents a mapper's declared answer on the operations it reaches, as the server sends it", async () => {
    const outOfStock = await exchange('/errors/out-of-stock');
    expect([outOfStock.status, typeOf(outOfStock)]).toEqual([409, 'text/plain']);
    expect(documented(operation('/errors/out-of-stock', 'get'), 409)).toEqual({
      description: 'Out of stock',
      content: { 'text/plain': { schema: { type: 'string' } } },
    });
    // The global mapper reaches every operation; the class-local one only its class's.
    expect(operation('/fruits', 'get').responses['409']).toBeDefined();
    const cheese = await exchange('/cheeses/gouda');
    expect([cheese.status, typeOf(cheese), await cheese.text()]).toEqual([404, 'text/plain', 'Unknown cheese: gouda']);
    expect(documented(operation('/cheeses/{name}', 'get'), 404).description).toBe('Unknown cheese');
    expect(mediaTypesOf(operation('/cheeses/{name}', 'get'), 404)).toContain('text/plain');
    expect(documented(operation('/fruits', 'get'), 404).description).not.toBe('Unknown cheese');
  });

  it("documents the framework's own 500 problem on every operation, which an unexpected failure answers", async () => {
    const reply = await exchange('/errors/unhandled');
    expect([reply.status, typeOf(reply)]).toEqual([500, 'application/problem+json']);
    expect(mediaTypesOf(operation('/errors/unhandled', 'get'), 500)).toContain('application/problem+json');
    for (const methods of Object.values(document.paths))
      for (const op of Object.values(methods)) expect(op.responses['500']).toBeDefined();
  });

  it('defines only the shared answers some operation uses (no 405)', () => {
    const used = new Set(
      Object.values(document.paths).flatMap((methods) =>
        Object.values(methods).flatMap((op) => Object.values(op.responses).map((response) => response.$ref)),
      ),
    );
    const defined = Object.keys(document.components.responses).map((name) => `#/components/responses/${name}`);
    expect(defined.filter((ref) => !used.has(ref))).toEqual([]);
    expect(document.components.responses['405']).toBeUndefined();
  });
});

describe('security', () => {
  it('names the bearer JWT scheme and requires it where @Authenticated stands: 401 without a token', async () => {
    expect(document.components.securitySchemes).toEqual({
      Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
    const me = operation('/me', 'get');
    expect(me.security).toEqual([{ Bearer: [] }]);
    const anonymous = await exchange('/me');
    expect([anonymous.status, typeOf(anonymous)]).toEqual([401, 'application/problem+json']);
    expect(mediaTypesOf(me, 401)).toContain('application/problem+json');
    const token = await devToken('alice', ['user']);
    expect((await exchange('/me', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('names the roles of @RolesAllowed and documents 403 for a caller without them', async () => {
    const stats = operation('/admin/stats', 'get');
    expect(stats.security).toEqual([{ Bearer: ['admin'] }]);
    const user = await devToken('bob', ['user']);
    const refused = await exchange('/admin/stats', { headers: { authorization: `Bearer ${user}` } });
    expect([refused.status, typeOf(refused)]).toEqual([403, 'application/problem+json']);
    expect(mediaTypesOf(stats, 403)).toContain('application/problem+json');
    const admin = await devToken('root', ['admin']);
    expect((await exchange('/admin/stats', { headers: { authorization: `Bearer ${admin}` } })).status).toBe(200);
  });

  it('leaves open operations open: security [] and no 401, and they answer without a token', async () => {
    const fruits = operation('/fruits', 'get');
    expect(fruits.security).toEqual([]);
    expect(fruits.responses['401']).toBeUndefined();
    expect((await exchange('/fruits')).status).toBe(200);
  });
});

describe('required', () => {
  it('requires a zod-validated query parameter whose schema refuses a missing value, as the server does', async () => {
    const start = operation('/jobs', 'post');
    const required = Object.fromEntries((start.parameters ?? []).map((param) => [param.name, param.required]));
    expect(required).toEqual({ steps: true, interval: true, grace: false });
    const missing = await exchange('/jobs?interval=0', { method: 'POST' });
    expect([missing.status, typeOf(missing)]).toEqual([400, 'application/problem+json']);
  });

  it('requires the multipart body, which the server cannot do without (415)', async () => {
    expect(operation('/multipart', 'post').requestBody?.required).toBe(true);
    expect((await exchange('/multipart', { method: 'POST' })).status).toBe(415);
  });
});

describe('@BeanParam', () => {
  it('describes its matrix parameter in the path and its form field as the body, and that request works', async () => {
    const op = operation('/cheeses/bean/{type}{variant}', 'post');
    expect(op.parameters).toEqual(
      expect.arrayContaining([
        { name: 'type', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'variant', in: 'path', style: 'matrix', required: true, schema: { type: 'string' } },
        { name: 'age', in: 'query', required: false, schema: { type: 'string' } },
      ]),
    );
    const form = op.requestBody!.content['application/x-www-form-urlencoded']!;
    expect(form.schema).toMatchObject({ type: 'object', properties: { smell: { type: 'string' } } });
    const reply = await exchange('/cheeses/bean/tomme;variant=goat?age=matured', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: 'level=hardcore',
        'x-cheese-secret-handshake': 'fist-bump',
      },
      body: 'smell=strong',
    });
    expect([reply.status, await reply.text()]).toEqual([200, 'tomme/goat/matured/hardcore/fist-bump/strong']);
  });
});

describe('success statuses', () => {
  it('documents a void method as 204 with no body, as it answers', async () => {
    const remove = operation('/records/{id}', 'delete');
    expect(remove.responses['204']).toEqual({ description: 'No content' });
    expect(remove.responses['200']).toBeUndefined();
    const reply = await exchange('/records/2', { method: 'DELETE' });
    expect([reply.status, await reply.text()]).toEqual([204, '']);
  });

  it('documents @ResponseStatus(202) on a method returning nothing as 202 with no body', async () => {
    expect(operation('/chat/messages', 'post').responses['202']).toEqual({ description: 'Accepted' });
    const reply = await exchange('/chat/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'ada', text: 'hello' }),
    });
    expect([reply.status, await reply.text()]).toEqual([202, '']);
  });

  it('documents the 202 and 303 a method builds as a RestResponse from its @APIResponse, not a 200', async () => {
    const start = operation('/jobs', 'post');
    expect(Object.keys(start.responses).filter((status) => status < '400')).toEqual(['202']);
    const started = await exchange('/jobs?steps=1&interval=0&grace=0', { method: 'POST' });
    expect([started.status, started.headers.get('location')]).toEqual([202, expect.stringMatching(/^\/jobs\//)]);
    const add = operation('/stored-fruits', 'post');
    expect(Object.keys(add.responses).filter((status) => status < '400')).toEqual(['303']);
    expect(add.responses['303']!.content).toBeUndefined();
    const stored = await exchange('/stored-fruits', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kiwi' }),
    });
    expect(stored.status).toBe(303);
  });

  it('types a JSON multipart part as an object sent as application/json, as the server reads it', async () => {
    const form = operation('/multipart', 'post').requestBody!.content['multipart/form-data']!;
    expect((form.schema as { properties: Json }).properties['person']).toEqual({ type: 'object' });
    expect(form.encoding).toEqual({ person: { contentType: 'application/json' } });
    const body = new FormData();
    body.append('description', 'a person');
    body.append(
      'person',
      new Blob([JSON.stringify({ firstName: 'Ada', lastName: 'Lovelace' })], { type: 'application/json' }),
    );
    const reply = await exchange('/multipart', { method: 'POST', body });
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { person: unknown }).person).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
  });
});
