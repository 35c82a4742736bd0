// CORS as a browser enforces it: headless Chromium loads a page from another local origin (another port), whose
// script calls the API with and without credentials. An allowed origin reads the answers and its preflight is
// cached for access-control-max-age; a page from an origin that is not allowed reads nothing.
import type { Server } from 'node:http';
import { GET, Path, PUT, RestApplication, type RunningServer } from '../../lib';
import { browse, pageServer, resultOf } from '../support/chromium';

@Path('notes')
class NoteResource {
  @GET
  list(): string[] {
    return ['a'];
  }

  @PUT
  replace(): string[] {
    return ['b'];
  }
}

/** A page whose script calls `api` four ways and writes what it could read into `data-result`. */
function page(api: string): string {
  return `<!doctype html><html><body><script>
const out = [];
const call = async (name, init) => {
  try {
    const response = await fetch('${api}/notes', init);
    out.push(name + ':' + response.status + ':' + (await response.text()));
  } catch {
    out.push(name + ':blocked');
  }
};
(async () => {
  await call('get', {});
  await call('credentials', { credentials: 'include' });
  await call('put1', { method: 'PUT', headers: { 'x-token': 't' } });
  await call('put2', { method: 'PUT', headers: { 'x-token': 't' } });
  document.body.setAttribute('data-result', out.join(' '));
})();
</script></body></html>`;
}

describe('CORS in a browser', () => {
  let api: RunningServer;
  let allowed: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  let preflights = 0;

  beforeAll(async () => {
    // The allowed page's origin is needed by the API, and the API's URL by the pages: the pages are written when
    // asked for, once the API listens. (A port reserved by listening and closing could be taken by another
    // spec's server before the API listened on it: EADDRINUSE once in a full run.)
    let apiUrl = '';
    allowed = await pageServer(() => page(apiUrl));
    other = await pageServer(() => page(apiUrl));
    const overrides = {
      'framework.http.cors.enabled': 'true',
      'framework.http.cors.origins': allowed.origin,
      'framework.http.cors.methods': 'GET,PUT',
      'framework.http.cors.headers': 'x-token',
      'framework.http.cors.access-control-allow-credentials': 'true',
      'framework.http.cors.access-control-max-age': '60s',
    };
    api = await RestApplication.build({ classes: [NoteResource], overrides }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    apiUrl = api.url;
    api.server!.on('request', (req: { method?: string }) => {
      if (req.method === 'OPTIONS') preflights++;
    });
  });

  afterAll(async () => {
    await api.close();
    for (const { server } of [allowed, other]) await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('lets a page of the allowed origin read every answer, with and without credentials, and caches its preflight', async () => {
    const result = resultOf(await browse(allowed.origin));
    expect(result).toBe('get:200:["a"] credentials:200:["a"] put1:200:["b"] put2:200:["b"]');
    expect(preflights).toBe(1);
  }, 90_000);

  it('lets a page of another origin read nothing', async () => {
    const before = preflights;
    const result = resultOf(await browse(other.origin));
    expect(result).toBe('get:blocked credentials:blocked put1:blocked put2:blocked');
    expect(preflights - before).toBeGreaterThanOrEqual(1);
  }, 90_000);
});
