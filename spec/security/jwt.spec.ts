// Bearer JWTs end to end over real sockets: keys made at run time, a JWKS served by a local server that can rotate
// them, tokens signed by jose. Every refusal answers 401 with a challenge that says no more than RFC 6750 allows.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { interval, map } from 'rxjs';
import type * as JoseModule from 'jose';
import {
  Authenticated,
  DefinitionError,
  DenyAll,
  GET,
  Path,
  PermitAll,
  Produces,
  RestApplication,
  RolesAllowed,
  SecurityContext,
  ServerRequestFilter,
  RequestContext,
  apiKeys,
  multi,
  securityContext,
  type Multi,
  type RunningServer,
  OnOpen,
  OnTextMessage,
  WebSocketEndpoint,
} from '../../lib';
import { openSocket, Refused } from '../support/ws-client';

const jose = require('jose') as typeof JoseModule;
type Key = Awaited<ReturnType<typeof JoseModule.generateKeyPair>>;

@Path('secure')
@RolesAllowed('user')
class SecureResource {
  @GET
  @Path('open')
  @PermitAll
  open(security: SecurityContext): { name: string } {
    return { name: security.userPrincipal?.name ?? 'anonymous' };
  }

  @GET
  @Path('me')
  @Authenticated
  me(
    security: SecurityContext,
    ctx: RequestContext,
  ): { name: string | undefined; roles: readonly string[]; scheme: string | undefined; filterSaw: string | null } {
    return {
      name: security.userPrincipal?.name,
      roles: security.roles,
      scheme: security.authenticationScheme,
      filterSaw: ctx.getProperty<string>('seen-by-filter') ?? null,
    };
  }

  @GET
  @Path('user')
  user(): string {
    return 'for users';
  }

  @GET
  @Path('admin')
  @RolesAllowed('admin')
  admin(): string {
    return 'for admins';
  }

  @GET
  @Path('nobody')
  @DenyAll
  nobody(): string {
    return 'never';
  }

  @GET
  @Path('ticks')
  @Authenticated
  @Produces('text/event-stream', 'application/x-ndjson')
  ticks(): Multi<{ tick: number }> {
    return multi(interval(100).pipe(map((tick) => ({ tick }))));
  }

  @ServerRequestFilter()
  stamp(ctx: RequestContext): void {
    const name = securityContext(ctx).userPrincipal?.name;
    if (name) ctx.setProperty('seen-by-filter', name);
  }
}

/** A socket only callers with a token may open; it greets them by name and echoes their messages. */
@WebSocketEndpoint('/secure/socket')
@Authenticated
class SecureSocket {
  @OnOpen
  greet(security: SecurityContext): string {
    return `hello ${security.userPrincipal!.name} (${security.roles.join(',')})`;
  }

  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'rxrest-api';

/** A JWKS server whose keys can change; counts its fetches. */
class JwksServer {
  keys: JoseModule.JWK[] = [];
  fetches = 0;
  readonly #server: Server = createServer((_req, res) => {
    this.fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.keys }));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/jwks`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

async function publicJwk(key: Key, kid: string): Promise<JoseModule.JWK> {
  return { ...(await jose.exportJWK(key.publicKey)), kid, alg: 'RS256', use: 'sig' };
}

interface Claims {
  sub?: string;
  groups?: string[];
  iss?: string;
  aud?: string;
  exp?: number;
  nbf?: number;
}

const now = () => Math.floor(Date.now() / 1000);

function sign(key: Key, kid: string, claims: Claims = {}): Promise<string> {
  const { exp = now() + 300, ...rest } = claims;
  return new jose.SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'alice', groups: ['user'], ...rest, exp })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuedAt()
    .sign(key.privateKey);
}

const base64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

let jwks: JwksServer;
let key: Key;
let server: RunningServer;

async function get(path: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  const body = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    type: response.headers.get('content-type'),
    body,
  };
}

beforeAll(async () => {
  jwks = new JwksServer();
  const url = await jwks.start();
  key = await jose.generateKeyPair('RS256', { extractable: true });
  jwks.keys = [await publicJwk(key, 'first')];
  const overrides = {
    'framework.security.jwt.jwks-url': url,
    'framework.security.jwt.issuer': ISSUER,
    'framework.security.jwt.audience': AUDIENCE,
    'framework.security.jwt.clock-skew': '1s',
    'framework.security.jwt.jwks-refresh-interval': '1s',
  };
  server = await RestApplication.build({ classes: [SecureResource, SecureSocket], overrides }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});

afterAll(async () => {
  await server.close();
  await jwks.close();
});

describe('bearer JWTs', () => {
  it('admits a valid token: the principal is its sub, the roles its groups, the scheme Bearer', async () => {
    const reply = await get('/secure/me', await sign(key, 'first', { groups: ['user', 'reader'] }));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({
      name: 'alice',
      roles: ['user', 'reader'],
      scheme: 'Bearer',
      filterSaw: 'alice',
    });
  });

  it('answers 401 with a Bearer challenge and problem details when no token comes', async () => {
    const reply = await get('/secure/me');
    expect(reply.status).toBe(401);
    expect(reply.challenge).toBe('Bearer');
    expect(reply.type).toContain('application/problem+json');
    expect(JSON.parse(reply.body)).toMatchObject({ status: 401, code: 'RXREST_UNAUTHORIZED' });
  });

  const refusals: [string, () => Promise<string>][] = [
    ['expired', () => sign(key, 'first', { exp: now() - 60 })],
    ['not yet valid', () => sign(key, 'first', { nbf: now() + 60 })],
    ['from another issuer', () => sign(key, 'first', { iss: 'https://elsewhere.test' })],
    ['for another audience', () => sign(key, 'first', { aud: 'another-api' })],
    [
      'unsigned (alg: none)',
      async () =>
        `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ iss: ISSUER, aud: AUDIENCE, sub: 'mallory', groups: ['admin'], exp: now() + 300 })}.`,
    ],
    [
      'HS256, signed with the public key as the secret',
      async () => {
        const secret = new TextEncoder().encode(await jose.exportSPKI(key.publicKey));
        return new jose.SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'mallory', groups: ['admin'] })
          .setProtectedHeader({ alg: 'HS256', kid: 'first' })
          .setExpirationTime('5m')
          .sign(secret);
      },
    ],
    ['signed by another key under a known kid', async () => sign(await jose.generateKeyPair('RS256'), 'first')],
    [
      'without exp',
      async () =>
        new jose.SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'alice', groups: ['user'] })
          .setProtectedHeader({ alg: 'RS256', kid: 'first' })
          .sign(key.privateKey),
    ],
    ['not a JWT', async () => 'not.a.token'],
    ['of two words', async () => `${await sign(key, 'first')} extra`],
  ];

  it.each(refusals)('refuses a token %s: 401 invalid_token, the reason kept from the client', async (_name, make) => {
    const reply = await get('/secure/me', await make());
    expect(reply.status).toBe(401);
    expect(reply.challenge).toBe('Bearer error="invalid_token"');
    expect(JSON.parse(reply.body)).toEqual(
      expect.objectContaining({ status: 401, code: 'RXREST_UNAUTHORIZED', detail: 'The credential was not accepted' }),
    );
  });

  it('answers 403 for a caller without the role, 200 for one with it; the class rule applies, a method rule wins over it', async () => {
    const user = await sign(key, 'first', { groups: ['user'] });
    const admin = await sign(key, 'first', { groups: ['admin'] });
    expect((await get('/secure/admin', user)).status).toBe(403);
    expect(JSON.parse((await get('/secure/admin', user)).body)).toMatchObject({
      status: 403,
      code: 'RXREST_FORBIDDEN',
    });
    expect(await get('/secure/admin', admin)).toMatchObject({ status: 200, body: 'for admins' });
    expect(await get('/secure/user', user)).toMatchObject({ status: 200, body: 'for users' });
    expect((await get('/secure/user', admin)).status).toBe(403);
    expect((await get('/secure/user')).status).toBe(401);
    expect((await get('/secure/nobody', admin)).status).toBe(403);
    expect((await get('/secure/nobody')).status).toBe(401);
  });

  it('lets anyone into a @PermitAll method, and still refuses a bad token there', async () => {
    expect(JSON.parse((await get('/secure/open')).body)).toEqual({ name: 'anonymous' });
    expect(JSON.parse((await get('/secure/open', await sign(key, 'first'))).body)).toEqual({ name: 'alice' });
    expect((await get('/secure/open', await sign(key, 'first', { exp: now() - 60 }))).status).toBe(401);
  });

  it('fetches the JWKS again for an unknown kid, at most once per refresh interval', async () => {
    const rotated = await jose.generateKeyPair('RS256', { extractable: true });
    const token = await sign(rotated, 'second');
    const before = jwks.fetches;
    // Not in the JWKS yet: refused, and twenty more such tokens within the interval cost at most one more fetch.
    for (let n = 0; n < 20; n++) expect((await get('/secure/me', token)).status).toBe(401);
    expect(jwks.fetches - before).toBeLessThanOrEqual(1);
    jwks.keys = [...jwks.keys, await publicJwk(rotated, 'second')];
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await get('/secure/me', token)).status).toBe(200);
    expect((await get('/secure/me', await sign(key, 'first'))).status).toBe(200);
  });

  it('refuses a token it admitted before once the token has expired (a verified token is remembered only until then)', async () => {
    const token = await sign(key, 'first', { exp: now() + 1 });
    expect((await get('/secure/me', token)).status).toBe(200);
    expect((await get('/secure/me', token)).status).toBe(200);
    // exp, then the 1 s of clock skew this file's server allows.
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect((await get('/secure/me', token)).status).toBe(401);
  });

  it('ends an SSE stream when the token that opened it expires: an expired event, then the end', async () => {
    const exp = now() + 2;
    const opened = Date.now();
    const response = await fetch(`${server.url}/secure/ticks`, {
      headers: { authorization: `Bearer ${await sign(key, 'first', { exp })}` },
    });
    expect(response.status).toBe(200);
    const body = await response.text();
    const ended = Date.now();
    expect(body).toContain('data:{"tick":0}');
    expect(body.endsWith('event:expired\ndata:credential expired\n\n')).toBe(true);
    expect(ended).toBeGreaterThanOrEqual(exp * 1000 - 50);
    expect(ended).toBeLessThan(exp * 1000 + 1000);
    expect(ended - opened).toBeLessThan(4000);
  });

  it('ends an NDJSON stream cleanly when its token expires: whole lines, then the end', async () => {
    const exp = now() + 2;
    const response = await fetch(`${server.url}/secure/ticks`, {
      headers: { accept: 'application/x-ndjson', authorization: `Bearer ${await sign(key, 'first', { exp })}` },
    });
    const body = await response.text();
    const ended = Date.now();
    expect(body.endsWith('}\n')).toBe(true);
    expect(
      body
        .split('\n')
        .filter(Boolean)
        .every((line) => /^\{"tick":\d+\}$/.test(line)),
    ).toBe(true);
    expect(ended).toBeGreaterThanOrEqual(exp * 1000 - 50);
    expect(ended).toBeLessThan(exp * 1000 + 1000);
  });
});

describe('WebSockets with bearer JWTs', () => {
  const socketUrl = () => `${server.url.replace(/^http/, 'ws')}/secure/socket`;

  it('answers an upgrade without a token 401 with the Bearer challenge, and opens no socket', async () => {
    const refused = openSocket(socketUrl());
    const error = (await refused.opened.catch((failure: unknown) => failure)) as Refused;
    expect(error).toBeInstanceOf(Refused);
    expect(error.status).toBe(401);
    expect(error.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(error.body)).toMatchObject({ status: 401, code: 'RXREST_UNAUTHORIZED' });
    const forged = openSocket(socketUrl(), { headers: { authorization: 'Bearer not.a.token' } });
    expect(((await forged.opened.catch((failure: unknown) => failure)) as Refused).status).toBe(401);
  });

  it('opens with a valid token: the methods of the socket read the SecurityContext of the upgrade', async () => {
    const token = await sign(key, 'first', { groups: ['user', 'reader'] });
    const socket = openSocket(socketUrl(), { headers: { authorization: `Bearer ${token}` } });
    expect(await socket.next()).toBe('hello alice (user,reader)');
    socket.socket.send('ping');
    expect(await socket.next()).toBe('ping');
    socket.socket.close();
  });

  it('closes a socket with 1008 within a second of the expiry of the token that opened it', async () => {
    const exp = now() + 2;
    const socket = openSocket(socketUrl(), {
      headers: { authorization: `Bearer ${await sign(key, 'first', { exp })}` },
    });
    await socket.opened;
    expect(await socket.closed).toEqual({ code: 1008, reason: 'The credential expired' });
    const ended = Date.now();
    expect(ended).toBeGreaterThanOrEqual(exp * 1000 - 50);
    expect(ended).toBeLessThan(exp * 1000 + 1000);
  });
});

describe('the build', () => {
  it('refuses @Authenticated or @RolesAllowed with no authentication mechanism, naming the method', () => {
    expect(() => RestApplication.build({ classes: [SecureResource] })).toThrow(DefinitionError);
    expect(() => RestApplication.build({ classes: [SecureResource] })).toThrow(
      /SecureResource#me: @Authenticated needs an authentication mechanism/,
    );
    expect(() => RestApplication.build({ classes: [SecureResource] })).toThrow(
      /SecureResource#admin: @RolesAllowed needs an authentication mechanism/,
    );
  });
});

describe('API keys', () => {
  it('authenticates by a key header, refuses an unknown key with 401, and filters see the principal', async () => {
    const app = RestApplication.build({
      classes: [SecureResource],
      authentication: [apiKeys({ keys: { 'k-123': { name: 'ops', roles: ['user', 'admin'] } } })],
    });
    const keyed = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      const ok = await fetch(`${keyed.url}/secure/me`, { headers: { 'x-api-key': 'k-123' } });
      expect(await ok.json()).toEqual({ name: 'ops', roles: ['user', 'admin'], scheme: 'ApiKey', filterSaw: 'ops' });
      const bad = await fetch(`${keyed.url}/secure/admin`, { headers: { 'x-api-key': 'k-124' } });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toBe('ApiKey header="X-API-Key" error="invalid_token"');
      expect((await fetch(`${keyed.url}/secure/admin`)).headers.get('www-authenticate')).toBe(
        'ApiKey header="X-API-Key"',
      );
    } finally {
      await keyed.close();
    }
  });
});
