// CORS with credentials: `origins=*` together with allow-credentials is refused at start (it would reflect every
// origin, `null` included, with the caller's cookies); with listed origins, credentials go only to those, over a
// real socket, and `null` (sandboxed frames, file: pages) only when listed as such.
import { ConfigError, GET, Path, RestApplication, type RunningServer } from '../../lib';
import { withServer } from '../support/app';
import { send } from '../support/http';

@Path('account')
class AccountResource {
  @GET
  balance(): { balance: number } {
    return { balance: 42 };
  }
}

const credentials = (origins: string) => ({
  'framework.http.cors.enabled': 'true',
  'framework.http.cors.origins': origins,
  'framework.http.cors.access-control-allow-credentials': 'true',
});

function serving(overrides: Record<string, string>, run: (server: RunningServer) => Promise<void>): Promise<void> {
  return withServer(RestApplication.build({ classes: [AccountResource], overrides }), run);
}

describe('framework.http.cors with credentials', () => {
  it('refuses origins=* with allow-credentials=true at start, naming both settings', () => {
    const build = () => RestApplication.build({ classes: [AccountResource], overrides: credentials('*') });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/framework\.http\.cors\.origins/);
    expect(build).toThrow(/framework\.http\.cors\.access-control-allow-credentials/);
    // Among other origins too: * still means every one.
    expect(() =>
      RestApplication.build({ classes: [AccountResource], overrides: credentials('https://app.test,*') }),
    ).toThrow(ConfigError);
  });

  it('still starts with origins=* without credentials, answering *', async () => {
    const overrides = { 'framework.http.cors.enabled': 'true', 'framework.http.cors.origins': '*' };
    await serving(overrides, async (server) => {
      const reply = await send(`${server.url}/account`, 'GET', { origin: 'https://anywhere.test' });
      expect([reply.status, reply.headers['access-control-allow-origin']]).toEqual([200, '*']);
      expect(reply.headers['access-control-allow-credentials']).toBeUndefined();
    });
  });

  it('gives credentials to a listed origin only; null only when listed, never through a /regex/', async () => {
    await serving(credentials('https://app.test,/https://[a-z.]+/'), async (server) => {
      const listed = await send(`${server.url}/account`, 'GET', { origin: 'https://app.test' });
      expect(listed.status).toBe(200);
      expect(listed.headers['access-control-allow-origin']).toBe('https://app.test');
      expect(listed.headers['access-control-allow-credentials']).toBe('true');
      const opaque = await send(`${server.url}/account`, 'GET', { origin: 'null' });
      expect(opaque.status).toBe(403);
      expect(opaque.headers['access-control-allow-origin']).toBeUndefined();
      expect(opaque.body).not.toContain('42');
    });
    await serving(credentials('/.*/'), async (server) => {
      const opaque = await send(`${server.url}/account`, 'GET', { origin: 'null' });
      expect([opaque.status, opaque.headers['access-control-allow-origin']]).toEqual([403, undefined]);
    });
    await serving(credentials('null'), async (server) => {
      const opaque = await send(`${server.url}/account`, 'GET', { origin: 'null' });
      expect([opaque.status, opaque.headers['access-control-allow-origin']]).toEqual([200, 'null']);
    });
  });
});
