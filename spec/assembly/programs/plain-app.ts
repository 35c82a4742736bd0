// A plain application (a resource, JSON, a path and a query parameter, a body) that serves one request of each
// kind, then prints the packages and RxJS entry points the process loaded, as JSON on one line. FEATURE turns on
// one optional feature, so the spec can see its packages arrive only then.
import { request } from 'node:http';
import {
  Body,
  Consumes,
  GET,
  OnTextMessage,
  Path,
  POST,
  Produces,
  RestApplication,
  RestPath,
  RestQuery,
  WebSocketEndpoint,
} from '../../../lib';

@Path('/')
class PlainResource {
  @GET
  @Path('hello')
  @Produces('text/plain')
  hello(): string {
    return 'Hello';
  }

  @GET
  @Path('users/{id}')
  @Produces('application/json')
  user(@RestPath() id: number, @RestQuery() since?: Date): { id: number; since?: string } {
    return { id, since: since?.toISOString() };
  }

  @POST
  @Path('echo')
  @Consumes('application/json')
  @Produces('application/json')
  echo(@Body() body: Record<string, unknown>): Record<string, unknown> {
    return body;
  }
}

@WebSocketEndpoint('/ws')
class EchoSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

/** The status of a WebSocket handshake made by hand (a client package would load `ws` itself). */
function handshake(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const upgrade = request(`${url}/ws`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    upgrade.on('upgrade', (response, socket) => (socket.destroy(), resolve(response.statusCode ?? 0)));
    upgrade.on('response', (response) => resolve(response.statusCode ?? 0));
    upgrade.on('error', reject);
    upgrade.end();
  });
}

const FEATURES: Record<string, Record<string, string>> = {
  none: {},
  metrics: { 'framework.metrics.enabled': 'true' },
  openapi: {},
  dates: {},
  websocket: {},
  // A key source only: the one token sent is no JWT, refused before any key is fetched.
  jwt: { 'framework.security.jwt.jwks-url': 'http://127.0.0.1:9/jwks.json' },
  'rate-limit': { 'framework.http.rate-limit.requests': '1000' },
};

async function main(): Promise<void> {
  const feature = process.env.FEATURE ?? 'none';
  const app = RestApplication.build({
    classes: feature === 'websocket' ? [PlainResource, EchoSocket] : [PlainResource],
    overrides: { 'framework.openapi.ui.always-include': 'true', ...FEATURES[feature] },
  });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  const answers = [
    await fetch(`${server.url}/hello`),
    await fetch(`${server.url}/users/42`),
    await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    }),
    await fetch(`${server.url}/nope`),
  ];
  if (feature === 'openapi') answers.push(await fetch(`${server.url}/q/openapi`));
  if (feature === 'dates') answers.push(await fetch(`${server.url}/users/42?since=2026-11-24`));
  if (feature === 'jwt')
    answers.push(await fetch(`${server.url}/hello`, { headers: { authorization: 'Bearer not.a.token' } }));
  const statuses = await Promise.all(answers.map(async (answer) => (await answer.arrayBuffer(), answer.status)));
  if (feature === 'websocket') statuses.push(await handshake(server.url));
  await server.close();
  const packages = new Set<string>();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    if (match) packages.add(match[1]!);
  }
  const rxjsIndex = Object.keys(require.cache).some((file) => /node_modules\/rxjs\/dist\/cjs\/index\.js$/.test(file));
  process.stdout.write(`${JSON.stringify({ statuses, packages: [...packages].sort(), rxjsIndex })}\n`);
}

void main();
