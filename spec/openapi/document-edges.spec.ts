// Edge operations whose document said something else than the server, over a real socket: a method returning bytes
// without @Produces is answered application/octet-stream (the document said JSON), and a method that reads no body
// but names @Consumes is answered 415 for another Content-Type (the document listed no 415). The document itself,
// YAML or JSON by Accept, said nothing of depending on it (no Vary), so a shared cache could hand either to anyone.
import { Consumes, GET, HttpMethod, Path, RestApplication, type RunningServer } from '../../lib';
import { validateOpenApi } from '../support/validate-openapi';

@Path('edges')
class Edges {
  @GET @Path('bytes') bytes(): Uint8Array {
    return new Uint8Array([1, 2, 3]);
  }
  @GET @Path('typed') @Consumes('application/json') typed(): string {
    return 'typed';
  }
}

// Methods outside the Path Item's own fields go under additionalOperations (OpenAPI 3.2); QUERY has a field.
@Path('cache')
class Cache {
  @HttpMethod('PURGE') purge(): string {
    return 'purged';
  }
  @HttpMethod('QUERY') query(): string {
    return 'found';
  }
}

interface Operation {
  responses: Record<string, { content?: Record<string, unknown> }>;
}

let server: RunningServer;
let document: { paths: Record<string, { get: Operation }> };
let paths: Record<string, { get: Operation }>;
beforeAll(async () => {
  server = await RestApplication.build({ classes: [Edges, Cache] }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
  document = (await (await fetch(`${server.url}/q/openapi?format=json`)).json()) as typeof document;
  paths = document.paths;
});
afterAll(() => server.close());

describe('the document of edge operations', () => {
  it('names the media type bytes are answered as when no @Produces does', async () => {
    const answer = await fetch(`${server.url}/edges/bytes`);
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    expect(Object.keys(paths['/edges/bytes']!.get.responses['200']!.content ?? {})).toEqual([
      'application/octet-stream',
    ]);
  });

  it('lists the 415 a method naming @Consumes answers, body or none', async () => {
    const answer = await fetch(`${server.url}/edges/typed`, { headers: { 'content-type': 'text/plain' } });
    expect(answer.status).toBe(415);
    expect(Object.keys(paths['/edges/typed']!.get.responses)).toContain('415');
  });

  it('says its form depends on Accept, so that a cache keeps the YAML and the JSON apart', async () => {
    for (const accept of ['application/json', 'application/yaml']) {
      const answer = await fetch(`${server.url}/q/openapi`, { headers: { accept } });
      expect([answer.headers.get('content-type'), answer.headers.get('vary')]).toEqual([
        `${accept};charset=UTF-8`,
        'Accept',
      ]);
    }
  });

  it('puts a method of its own (PURGE) under additionalOperations, which the server answers, and stays valid', async () => {
    const item = paths['/cache'] as unknown as Record<string, unknown>;
    expect(Object.keys(item).sort()).toEqual(['additionalOperations', 'query']);
    expect(Object.keys(item['additionalOperations'] as object)).toEqual(['PURGE']);
    expect((await fetch(`${server.url}/cache`, { method: 'PURGE' })).status).toBe(200);
    expect(validateOpenApi(document)).toEqual({ valid: true, version: '3.2' });
  });
});
