/**
 * Access rules, authentication mechanisms and rate limits in the OpenAPI document, each checked against what the
 * server answers over a real socket.
 */
import {
  Authenticated,
  DenyAll,
  GET,
  Path,
  PermitAll,
  RateLimit,
  RestApplication,
  RolesAllowed,
  apiKeys,
  resolveConfig,
  type RunningServer,
} from '../../lib';
import { validateOpenApi } from '../support/validate-openapi';

@Path('vault')
@Authenticated
class VaultResource {
  @GET items(): string[] {
    return ['gold'];
  }

  @GET @Path('brochure') @PermitAll brochure(): string {
    return 'come visit';
  }

  @GET @Path('keys') @RolesAllowed('keeper', '**') keys(): string {
    return 'all of them';
  }

  @GET @Path('sealed') @DenyAll sealed(): string {
    return 'never';
  }

  @GET @Path('tour') @PermitAll @RateLimit({ requests: 1, window: '1m' }) tour(): string {
    return 'one tour a minute';
  }
}

interface Operation {
  security?: Record<string, string[]>[];
  responses: Record<string, { $ref?: string }>;
}

const KEY = 'k-123';
let server: RunningServer;
let base: string;
let document: { paths: Record<string, { get: Operation }>; components: { securitySchemes?: unknown } };

beforeAll(async () => {
  const app = RestApplication.build({
    classes: [VaultResource],
    config: resolveConfig(),
    authentication: [apiKeys({ header: 'X-Vault-Key', keys: { [KEY]: { name: 'ada', roles: ['keeper'] } } })],
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  base = `http://127.0.0.1:${server.port}`;
  document = (await (await fetch(`${base}/q/openapi?format=json`)).json()) as typeof document;
});
afterAll(() => server.close());

const statusOf = async (path: string, headers: Record<string, string> = {}) =>
  (await fetch(`${base}${path}`, { headers })).status;
const errorStatuses = (path: string) =>
  Object.keys(document.paths[path]!.get.responses).filter((status) => ['401', '403', '429'].includes(status));

describe('the document of a secured application', () => {
  it("names an apiKeys mechanism's header as an apiKey scheme, and is valid OpenAPI 3.2", () => {
    expect(document.components.securitySchemes).toEqual({
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-Vault-Key' },
    });
    expect(validateOpenApi(document)).toEqual({ valid: true, version: '3.2' });
  });

  it("requires the scheme on a class's @Authenticated methods: 401 without the key, 200 with it", async () => {
    expect(document.paths['/vault']!.get.security).toEqual([{ ApiKey: [] }]);
    expect(errorStatuses('/vault')).toEqual(['401']);
    expect(await statusOf('/vault')).toBe(401);
    expect(await statusOf('/vault', { 'x-vault-key': KEY })).toBe(200);
  });

  it('clears it for @PermitAll: security [] and no 401, and the server answers without a key', async () => {
    expect(document.paths['/vault/brochure']!.get.security).toEqual([]);
    expect(errorStatuses('/vault/brochure')).toEqual([]);
    expect(await statusOf('/vault/brochure')).toBe(200);
  });

  it('lists named roles (not the any-caller **) and documents 403 only where a caller can be refused', async () => {
    expect(document.paths['/vault/keys']!.get.security).toEqual([{ ApiKey: ['keeper'] }]);
    expect(errorStatuses('/vault/keys')).toEqual(['401']);
    expect(await statusOf('/vault/keys', { 'x-vault-key': KEY })).toBe(200);
    expect(errorStatuses('/vault/sealed')).toEqual(['401', '403']);
    expect(await statusOf('/vault/sealed', { 'x-vault-key': KEY })).toBe(403);
  });

  it('documents the 429 of a @RateLimit method, which its second call within the window answers', async () => {
    expect(errorStatuses('/vault/tour')).toEqual(['429']);
    expect(errorStatuses('/vault/brochure')).not.toContain('429');
    expect(await statusOf('/vault/tour')).toBe(200);
    const refused = await fetch(`${base}/vault/tour`);
    expect([refused.status, refused.headers.get('content-type')?.split(';')[0]]).toEqual([
      429,
      'application/problem+json',
    ]);
  });
});
