// The built-in management endpoints (health, metrics, the OpenAPI document, Swagger UI) closed by one setting, over a
// real socket: with framework.management.roles-allowed they answer only a caller in one of its roles (401 without a
// credential, 403 with another role, the refused credentials counted like any), the application's own resources are
// untouched, health may stay open for probes, and a rule nobody could meet (no authentication) stops the start.
import { apiKeys, ConfigError, GET, Path, RestApplication, type RunningServer } from '../../lib';
import { withServer } from '../support/app';

@Path('hello')
class HelloResource {
  @GET
  hello(): string {
    return 'hello';
  }
}

const keys = apiKeys({
  keys: { 'ops-key': { name: 'ops', roles: ['ops'] }, 'user-key': { name: 'ada', roles: ['user'] } },
});

const MANAGEMENT = ['/q/health', '/q/health/live', '/q/metrics', '/q/openapi', '/q/swagger-ui', '/q/swagger-ui/'];

function serving(overrides: Record<string, string>, run: (server: RunningServer) => Promise<void>): Promise<void> {
  const app = RestApplication.build({
    classes: [HelloResource],
    authentication: [keys],
    overrides: {
      'framework.metrics.enabled': 'true',
      'framework.openapi.ui.always-include': 'true',
      ...overrides,
    },
  });
  return withServer(app, run);
}

async function statuses(server: RunningServer, paths: readonly string[], key?: string): Promise<number[]> {
  const seen: number[] = [];
  for (const path of paths)
    seen.push((await fetch(`${server.url}${path}`, { headers: key ? { 'x-api-key': key } : {} })).status);
  return seen;
}

describe('framework.management.roles-allowed', () => {
  it('leaves the management endpoints open when unset', async () => {
    await serving({}, async (server) => {
      expect(await statuses(server, MANAGEMENT)).toEqual([200, 200, 200, 200, 200, 200]);
    });
  });

  it('answers them only to a caller in one of its roles: 401 without a credential, 403 with another role', async () => {
    await serving({ 'framework.management.roles-allowed': 'ops,admin' }, async (server) => {
      const anonymous = await fetch(`${server.url}/q/metrics`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain('ApiKey');
      expect(((await anonymous.json()) as { code: string }).code).toBe('RXREST_UNAUTHORIZED');
      expect(await statuses(server, MANAGEMENT)).toEqual([401, 401, 401, 401, 401, 401]);
      expect(await statuses(server, MANAGEMENT, 'user-key')).toEqual([403, 403, 403, 403, 403, 403]);
      expect(await statuses(server, MANAGEMENT, 'ops-key')).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await statuses(server, MANAGEMENT, 'wrong-key')).toEqual([401, 401, 401, 401, 401, 401]);
      // The application's own resources and unknown paths answer as before.
      expect(await statuses(server, ['/hello', '/q/other', '/q/metricsx'])).toEqual([200, 404, 404]);
    });
  });

  it('counts refused credentials on them against the failed-authentication budget', async () => {
    const settings = {
      'framework.management.roles-allowed': 'ops',
      'framework.http.rate-limit.failed-authentications': '3',
    };
    await serving(settings, async (server) => {
      const refused = await statuses(server, ['/q/metrics', '/q/metrics', '/q/metrics', '/q/metrics'], 'forged');
      expect(refused).toEqual([401, 401, 401, 429]);
    });
  });

  it('leaves health open for probes with framework.management.include-health=false', async () => {
    const settings = { 'framework.management.roles-allowed': 'ops', 'framework.management.include-health': 'false' };
    await serving(settings, async (server) => {
      expect(await statuses(server, MANAGEMENT)).toEqual([200, 200, 401, 401, 401, 401]);
    });
  });

  it('stops the start when no authentication could meet it, naming the setting', () => {
    const build = () =>
      RestApplication.build({ classes: [HelloResource], overrides: { 'framework.management.roles-allowed': 'ops' } });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/framework\.management\.roles-allowed.*authentication/);
  });
});
