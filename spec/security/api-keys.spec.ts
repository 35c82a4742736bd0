// apiKeys() from keys a deployment reads from its environment: an unset variable makes a key of "" (`?? ''`,
// `FOO=` in a file) or of "undefined" (a computed key `[process.env.FOO!]`), which a stranger can send as easily as
// nothing at all. Such a key stops the start instead of admitting whoever sends it; real keys work over a socket.
import { Authenticated, GET, Path, RestApplication, SecurityContext, apiKeys } from '../../lib';
import { withServer } from '../support/app';

@Path('ops')
class OpsResource {
  @GET
  @Authenticated
  who(security: SecurityContext): string {
    return security.userPrincipal!.name;
  }
}

describe('apiKeys', () => {
  it.each([
    ['an empty key', ''],
    ['a key of blanks', '  '],
    ['the key "undefined"', String(process.env.RXREST_NO_SUCH_VARIABLE)],
    ['the key "null"', 'null'],
  ])('refuses %s, naming its owner', (_name, key) => {
    expect(() =>
      apiKeys({ keys: { 'good-key-1234': { name: 'ci' }, [key]: { name: 'ops', roles: ['admin'] } } }),
    ).toThrow(
      'apiKeys: the key of "ops" is empty or unset (an environment variable without a value?): a stranger could send it',
    );
  });

  it('admits a real key and refuses an empty header over a socket', async () => {
    const app = RestApplication.build({
      classes: [OpsResource],
      authentication: [apiKeys({ keys: { 'k-8f2e41c7': { name: 'ops' } } })],
    });
    await withServer(app, async (server) => {
      const good = await fetch(`${server.url}/ops`, { headers: { 'x-api-key': 'k-8f2e41c7' } });
      expect([good.status, await good.text()]).toEqual([200, 'ops']);
      const empty = await fetch(`${server.url}/ops`, { headers: { 'x-api-key': '' } });
      expect(empty.status).toBe(401);
      await empty.text();
    });
  });
});
