// What a bearer JWT's claims must say, over real sockets: a subject, an `iat` not ahead of the clock, roles read
// from the token's own claims only (never from a polluted Object.prototype), a string roles claim as one role unless
// it is said to be space-delimited; and what the configuration may say: a bounded clock skew, a warning without an
// audience. Keys are made at run time; the application reads the public one from a PEM file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as JoseModule from 'jose';
import {
  Authenticated,
  ConfigError,
  GET,
  Path,
  RestApplication,
  RolesAllowed,
  SecurityContext,
  logging,
  resolveConfig,
  type LogRecord,
  type RunningServer,
} from '../../lib';
import { tempDir } from '../support/temp-dir';

const jose = require('jose') as typeof JoseModule;

@Path('claims')
class ClaimsResource {
  @GET
  @Path('me')
  @Authenticated
  me(security: SecurityContext): { name: string; roles: readonly string[] } {
    return { name: security.userPrincipal!.name, roles: security.roles };
  }

  @GET
  @Path('admin')
  @RolesAllowed('admin')
  admin(): string {
    return 'for admins';
  }
}

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'claims-api';
const now = () => Math.floor(Date.now() / 1000);

let keys: Awaited<ReturnType<typeof JoseModule.generateKeyPair>>;
let keyFile: string;
const servers: RunningServer[] = [];
const directory = tempDir('jwt-claims');

beforeAll(async () => {
  keys = await jose.generateKeyPair('ES256', { extractable: true });
  keyFile = join(directory, 'public.pem');
  writeFileSync(keyFile, await jose.exportSPKI(keys.publicKey));
});
afterAll(() => Promise.all(servers.map((server) => server.close())));

function build(settings: Record<string, string> = {}) {
  return RestApplication.build({
    classes: [ClaimsResource],
    config: resolveConfig({
      overrides: {
        'framework.security.jwt.public-key-file': keyFile,
        'framework.security.jwt.issuer': ISSUER,
        'framework.security.jwt.audience': AUDIENCE,
        'framework.security.jwt.clock-skew': '5s',
        ...settings,
      },
    }),
  });
}

async function serve(settings: Record<string, string> = {}): Promise<string> {
  const server = await build(settings).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  servers.push(server);
  return server.url;
}

/** A token with the usual claims, `claims` replacing or adding any (`undefined` leaves one out). */
function sign(claims: Record<string, unknown> = {}): Promise<string> {
  const payload: Record<string, unknown> = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'alice',
    groups: ['user'],
    iat: now(),
    exp: now() + 300,
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new jose.SignJWT(payload).setProtectedHeader({ alg: 'ES256' }).sign(keys.privateKey);
}

async function get(url: string, token: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.text() };
}

describe('the subject', () => {
  let url: string;
  beforeAll(async () => (url = await serve()));

  it('refuses a token naming no one (no sub, upn or preferred_username, or an empty one) with 401', async () => {
    for (const claims of [{ sub: undefined }, { sub: '' }, { sub: undefined, upn: '' }, { sub: 42 }]) {
      const reply = await get(`${url}/claims/me`, await sign(claims));
      expect(reply.status).toBe(401);
    }
  });

  it('still takes upn or preferred_username where there is no sub', async () => {
    const upn = await get(`${url}/claims/me`, await sign({ sub: undefined, upn: 'bob@example.test' }));
    expect(JSON.parse(upn.body)).toEqual({ name: 'bob@example.test', roles: ['user'] });
    const preferred = await get(`${url}/claims/me`, await sign({ sub: undefined, preferred_username: 'carol' }));
    expect(JSON.parse(preferred.body)).toEqual({ name: 'carol', roles: ['user'] });
  });
});

describe('iat', () => {
  let url: string;
  beforeAll(async () => (url = await serve()));

  it('refuses a token issued in the future beyond the clock skew, admits one within it or without iat', async () => {
    expect((await get(`${url}/claims/me`, await sign({ iat: now() + 365 * 86400 }))).status).toBe(401);
    expect((await get(`${url}/claims/me`, await sign({ iat: now() + 60 }))).status).toBe(401);
    expect((await get(`${url}/claims/me`, await sign({ iat: now() + 3 }))).status).toBe(200);
    expect((await get(`${url}/claims/me`, await sign({ iat: undefined }))).status).toBe(200);
  });
});

describe('roles', () => {
  let url: string;
  beforeAll(async () => (url = await serve()));

  it('takes a string roles claim as one role: "Finance admin" is not admin', async () => {
    const token = await sign({ groups: 'Finance admin' });
    expect(JSON.parse((await get(`${url}/claims/me`, token)).body)).toEqual({
      name: 'alice',
      roles: ['Finance admin'],
    });
    expect((await get(`${url}/claims/admin`, token)).status).toBe(403);
  });

  it('splits a string claim on spaces when the setting says it is space-delimited (an OAuth scope)', async () => {
    const scoped = await serve({
      'framework.security.jwt.roles-claim': 'scope',
      'framework.security.jwt.roles-claim-delimited': 'true',
    });
    const token = await sign({ scope: 'orders:read  admin' });
    expect(JSON.parse((await get(`${scoped}/claims/me`, token)).body)).toEqual({
      name: 'alice',
      roles: ['orders:read', 'admin'],
    });
    expect((await get(`${scoped}/claims/admin`, token)).status).toBe(200);
  });

  it('reads the roles and the subject from the token alone, never from a polluted Object.prototype', async () => {
    const prototype = Object.prototype as Record<string, unknown>;
    const token = await sign({ groups: undefined });
    const nested = await serve({ 'framework.security.jwt.roles-claim': 'realm_access.roles' });
    prototype.groups = ['admin'];
    prototype.realm_access = { roles: ['admin'] };
    prototype.upn = 'root';
    try {
      expect(JSON.parse((await get(`${url}/claims/me`, token)).body)).toEqual({ name: 'alice', roles: [] });
      expect((await get(`${url}/claims/admin`, token)).status).toBe(403);
      expect((await get(`${nested}/claims/admin`, token)).status).toBe(403);
      expect((await get(`${url}/claims/me`, await sign({ sub: undefined, groups: undefined }))).status).toBe(401);
    } finally {
      delete prototype.groups;
      delete prototype.realm_access;
      delete prototype.upn;
    }
  });
});

describe('the configuration', () => {
  it('refuses a clock skew past 5 minutes at build, naming the setting', () => {
    expect(() => build({ 'framework.security.jwt.clock-skew': '36500d' })).toThrow(ConfigError);
    expect(() => build({ 'framework.security.jwt.clock-skew': '6m' })).toThrow(
      /framework\.security\.jwt\.clock-skew: "6m" .* at most 5m/,
    );
    expect(() => build({ 'framework.security.jwt.clock-skew': '5m' })).not.toThrow();
  });

  it('warns at build when no audience is configured (tokens for any API of the issuer would pass)', () => {
    const records: LogRecord[] = [];
    const previous = logging.setSink((record) => records.push(record));
    try {
      RestApplication.build({
        classes: [ClaimsResource],
        config: resolveConfig({ overrides: { 'framework.security.jwt.public-key-file': keyFile } }),
      });
      build();
    } finally {
      logging.setSink(previous);
    }
    const warnings = records.filter((record) => record.level === 'WARN' && record.category === 'rxrest.security');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('framework.security.jwt.audience');
  });
});
