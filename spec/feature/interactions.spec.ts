/**
 * Rows of the interaction table (docs/interactions.md) that no feature's own spec proves: what the order of the
 * phases makes of two features meeting on one answer.
 */
import { GET, Path, RateLimit, RolesAllowed, apiKeys } from '../../lib';
import { buildApp, call } from '../support/app';

@Path('menu')
class MenuResource {
  @GET @RateLimit({ requests: 1, window: '1m' }) today(): string {
    return 'soup';
  }
}

@Path('kitchen')
class KitchenResource {
  @GET @RolesAllowed('cook') tools(): string {
    return 'knives';
  }
}

const CORS = {
  'framework.http.cors.enabled': 'true',
  'framework.http.cors.origins': 'https://app.example',
  'framework.http.cors.exposed-headers': 'retry-after',
};
const FROM_APP = { headers: { origin: 'https://app.example' } };

describe('CORS with the answers of other features', () => {
  it('puts its headers on a 429 of the rate limits, so a page can read Retry-After', async () => {
    const app = buildApp([MenuResource], CORS);
    expect((await call(app, '/menu', FROM_APP)).status).toBe(200);
    const refused = await call(app, '/menu', FROM_APP);
    expect([
      refused.status,
      refused.headers.get('access-control-allow-origin'),
      refused.headers.get('access-control-expose-headers'),
      refused.headers.get('retry-after') !== null,
    ]).toEqual([429, 'https://app.example', 'retry-after', true]);
  });

  it('puts its headers on a 401 of security, so a page can read WWW-Authenticate', async () => {
    const app = buildApp([KitchenResource], CORS, { authentication: [apiKeys({ keys: { k1: { name: 'ann' } } })] });
    const refused = await call(app, '/kitchen', FROM_APP);
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([401, 'https://app.example']);
    expect(refused.headers.get('www-authenticate')).toContain('ApiKey');
  });
});
