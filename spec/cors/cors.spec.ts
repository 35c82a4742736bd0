// CORS over a real socket: preflights answered before routing, headers on every answer to an allowed origin (errors
// too), 403 with no CORS header for another origin, requests without Origin and same-origin ones untouched.
import { GET, Path, PUT, RestApplication, type RunningServer } from '../../lib';
import { withServer } from '../support/app';
import { send as sendTo, type RawReply as Reply } from '../support/http';

const send = (
  server: RunningServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Reply> => sendTo(`${server.url}${path}`, method, headers);

let calls = 0;

@Path('notes')
class NoteResource {
  @GET
  list(): string[] {
    calls++;
    return ['a'];
  }

  @PUT
  replace(): string[] {
    calls++;
    return ['b'];
  }
}

const APP = 'http://app.example.test';
const cors = (overrides: Record<string, string>) => ({
  'framework.http.cors.enabled': 'true',
  'framework.http.cors.origins': APP,
  ...overrides,
});

function serving(overrides: Record<string, string>, run: (server: RunningServer) => Promise<void>): Promise<void> {
  return withServer(RestApplication.build({ classes: [NoteResource], overrides }), run);
}

const corsHeaders = (reply: Reply) => Object.keys(reply.headers).filter((name) => name.startsWith('access-control-'));

describe('framework.http.cors', () => {
  it('adds the allowed origin, Vary, exposed headers and credentials to an answer for an allowed origin', async () => {
    const settings = cors({
      'framework.http.cors.exposed-headers': 'Location,Stream-Items',
      'framework.http.cors.access-control-allow-credentials': 'true',
    });
    await serving(settings, async (server) => {
      const reply = await send(server, 'GET', '/notes', { origin: APP });
      expect(reply.status).toBe(200);
      expect(reply.body).toBe('["a"]');
      expect(reply.headers['access-control-allow-origin']).toBe(APP);
      expect(reply.headers['access-control-allow-credentials']).toBe('true');
      expect(reply.headers['access-control-expose-headers']).toBe('Location, Stream-Items');
      expect(reply.headers.vary).toContain('Origin');
      // An error answer is readable too: the page learns why.
      const missing = await send(server, 'GET', '/nothing', { origin: APP });
      expect([missing.status, missing.headers['access-control-allow-origin']]).toEqual([404, APP]);
    });
  });

  it('refuses another origin with 403 and no CORS header, without running the method', async () => {
    await serving(cors({}), async (server) => {
      const before = calls;
      const reply = await send(server, 'GET', '/notes', { origin: 'http://evil.example.test' });
      expect(reply.status).toBe(403);
      expect(corsHeaders(reply)).toEqual([]);
      expect(reply.body).not.toContain('"a"');
      expect(JSON.parse(reply.body)).toMatchObject({ code: 'RXREST_FORBIDDEN' });
      expect(calls).toBe(before);
    });
  });

  it('leaves requests without Origin, and same-origin ones, untouched', async () => {
    await serving(cors({}), async (server) => {
      const plain = await send(server, 'GET', '/notes');
      expect([plain.status, corsHeaders(plain)]).toEqual([200, []]);
      const own = await send(server, 'GET', '/notes', { origin: server.url });
      expect([own.status, corsHeaders(own)]).toEqual([200, []]);
    });
  });

  it('answers a preflight before routing: methods, headers and max age, the method never called', async () => {
    const settings = cors({
      'framework.http.cors.methods': 'GET,PUT',
      'framework.http.cors.headers': 'Content-Type,Authorization',
      'framework.http.cors.access-control-max-age': '10m',
    });
    await serving(settings, async (server) => {
      const before = calls;
      const preflight = await send(server, 'OPTIONS', '/notes', {
        origin: APP,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization',
      });
      expect(preflight.status).toBe(200);
      expect(preflight.headers['access-control-allow-origin']).toBe(APP);
      expect(preflight.headers['access-control-allow-methods']).toBe('GET, PUT');
      expect(preflight.headers['access-control-allow-headers']).toBe('Content-Type, Authorization');
      expect(preflight.headers['access-control-max-age']).toBe('600');
      expect(calls).toBe(before);
      const wrongMethod = await send(server, 'OPTIONS', '/notes', {
        origin: APP,
        'access-control-request-method': 'DELETE',
      });
      expect([wrongMethod.status, corsHeaders(wrongMethod)]).toEqual([403, []]);
      // The origin is allowed: the refusal names what is not.
      expect(JSON.parse(wrongMethod.body).detail).toBe(
        'The preflight asks for a method or header the CORS rules do not allow',
      );
      const wrongHeader = await send(server, 'OPTIONS', '/notes', {
        origin: APP,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'x-secret',
      });
      expect(wrongHeader.status).toBe(403);
      expect(JSON.parse(wrongHeader.body).detail).toBe(
        'The preflight asks for a method or header the CORS rules do not allow',
      );
      const otherOrigin = await send(server, 'OPTIONS', '/notes', {
        origin: 'http://evil.example.test',
        'access-control-request-method': 'GET',
      });
      expect([otherOrigin.status, corsHeaders(otherOrigin)]).toEqual([403, []]);
      expect(JSON.parse(otherOrigin.body).detail).toBe('The origin is not allowed');
    });
  });

  it("keeps the specification's OPTIONS and 405 for requests that are not CORS", async () => {
    await serving(cors({}), async (server) => {
      const options = await send(server, 'OPTIONS', '/notes');
      expect(options.status).toBe(200);
      expect(String(options.headers.allow)).toContain('PUT');
      expect((await send(server, 'DELETE', '/notes')).status).toBe(405);
      expect((await send(server, 'DELETE', '/notes', { origin: APP })).status).toBe(405);
    });
  });

  it('takes * (answered as *, without credentials) and /regex/ origins', async () => {
    await serving(cors({ 'framework.http.cors.origins': '*' }), async (server) => {
      const reply = await send(server, 'GET', '/notes', { origin: 'http://anywhere.test' });
      expect(reply.headers['access-control-allow-origin']).toBe('*');
    });
    await serving(cors({ 'framework.http.cors.origins': '/https://[a-z]+\\.example\\.test/' }), async (server) => {
      expect(
        (await send(server, 'GET', '/notes', { origin: 'https://shop.example.test' })).headers[
          'access-control-allow-origin'
        ],
      ).toBe('https://shop.example.test');
      expect((await send(server, 'GET', '/notes', { origin: 'https://shop.example.test.evil' })).status).toBe(403);
    });
  });

  it('refuses a long crafted Origin at once, never running a backtracking /regex/ on it, and still admits a real origin', async () => {
    // Cubic backtracking: seconds on the 3,000-character Origin below, nothing on any real origin.
    const pattern = '/https://[\\w.-]*-[\\w.-]*-[\\w.-]*\\.example\\.test/';
    await serving(cors({ 'framework.http.cors.origins': pattern }), async (server) => {
      const started = Date.now();
      const crafted = await send(server, 'GET', '/notes', { origin: `https://${'-'.repeat(3000)}!` });
      expect(Date.now() - started).toBeLessThan(1000);
      expect([crafted.status, corsHeaders(crafted)]).toEqual([403, []]);
      const real = await send(server, 'GET', '/notes', { origin: 'https://pr-12-app.example.test' });
      expect([real.status, real.headers['access-control-allow-origin']]).toEqual([
        200,
        'https://pr-12-app.example.test',
      ]);
    });
  });

  it('is off unless enabled: no CORS header, no refusal', async () => {
    await serving({}, async (server) => {
      const reply = await send(server, 'GET', '/notes', { origin: 'http://evil.example.test' });
      expect([reply.status, corsHeaders(reply)]).toEqual([200, []]);
    });
  });
});
