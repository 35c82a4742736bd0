// CORS as a browser enforces it: headless Chromium loads a page from another local origin (another port), whose
// script calls the API with and without credentials. An allowed origin reads the answers and its preflight is
// cached for access-control-max-age; a page from an origin that is not allowed reads nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    // The API's port is needed by the pages, and the allowed page's origin by the API: reserve the API's port first.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const apiUrl = `http://127.0.0.1:${port}`;
    allowed = await pageServer(page(apiUrl));
    other = await pageServer(page(apiUrl));
    const overrides = {
      'framework.http.cors.enabled': 'true',
      'framework.http.cors.origins': allowed.origin,
      'framework.http.cors.methods': 'GET,PUT',
      'framework.http.cors.headers': 'x-token',
      'framework.http.cors.access-control-allow-credentials': 'true',
      'framework.http.cors.access-control-max-age': '60s',
    };
    api = await RestApplication.build({ classes: [NoteResource], overrides }).listen({
      port,
      host: '127.0.0.1',
      handleSignals: false,
    });
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
