import { apiKeys, DenyAll, GET, Path, RestApplication, SecurityContext } from '../../lib';

@Path('who')
class Who {
  @GET who(security: SecurityContext) {
    return {
      ops: security.isUserInRole('ops'),
      anyone: security.isUserInRole('**'),
      roles: security.roles,
      secure: security.isSecure,
    };
  }
}

const app = RestApplication.build({
  classes: [Who],
  authentication: [apiKeys({ keys: { 'ops-key': { name: 'ops', roles: ['ops'] } } })],
});

const who = async (url: string, headers: Record<string, string> = {}) =>
  (await app.fetch(new Request(url, { headers }))).json();

describe('SecurityContext', () => {
  it('answers no role, not even **, for an anonymous caller', async () => {
    expect(await who('http://localhost/who')).toEqual({ ops: false, anyone: false, roles: [], secure: false });
  });

  it("answers the caller's roles and **, and whether the request came over HTTPS", async () => {
    expect(await who('https://localhost/who', { 'x-api-key': 'ops-key' })).toEqual({
      ops: true,
      anyone: true,
      roles: ['ops'],
      secure: true,
    });
  });
});

describe('@DenyAll without any authentication mechanism', () => {
  it('answers 403, not a 401 no credential could meet', async () => {
    @Path('closed')
    class Closed {
      @GET @DenyAll never(): string {
        return 'never';
      }
    }
    const response = await RestApplication.build({ classes: [Closed] }).fetch(new Request('http://localhost/closed'));
    expect([response.status, response.headers.get('www-authenticate')]).toEqual([403, null]);
    expect(await response.json()).toMatchObject({ code: 'RXREST_FORBIDDEN' });
  });
});
