// An identity provider whose JWKS cannot be read (down, answering garbage or an endless key set), over real
// sockets. Its callers' good tokens are not "refused credentials": they answer 503 with Retry-After, never 401
// invalid_token (which tells a client to throw its token away) and never count against the address's budget of
// refused credentials; the keys last read go on verifying; and strangers cannot make the server ask the failing
// provider again with every request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as JoseModule from 'jose';
import { Authenticated, GET, Path, RestApplication, SecurityContext, type RunningServer } from '../../lib';
import { within } from '../support/until';

const jose = require('jose') as typeof JoseModule;
type Key = Awaited<ReturnType<typeof JoseModule.generateKeyPair>>;

@Path('me')
class MeResource {
  @GET
  @Authenticated
  me(security: SecurityContext): string {
    return security.userPrincipal!.name;
  }
}

type Mode = 'up' | 'down' | 'garbage' | 'endless';

/** A JWKS server that can fail in several ways; counts its fetches. */
class JwksServer {
  mode: Mode = 'up';
  keys: JoseModule.JWK[] = [];
  fetches = 0;
  readonly #server: Server = createServer((_req, res) => {
    this.fetches++;
    if (this.mode === 'down') return void res.writeHead(503).end('maintenance');
    if (this.mode === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>');
    if (this.mode === 'up')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.keys }));
    // An endless key set: the server must not hold it whole.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"keys":[');
    const chunk = `${JSON.stringify(this.keys[0])},`.repeat(100);
    const more = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', more);
    more();
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/jwks`;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return within(new Promise((resolve) => this.#server.close(() => resolve())), 'the JWKS server to close', 5000);
  }
}

let jwks: JwksServer;
let key: Key;
let server: RunningServer;

function sign(kid: string, sub = 'alice'): Promise<string> {
  return new jose.SignJWT({ sub })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key.privateKey);
}

async function get(token: string) {
  const response = await fetch(`${server.url}/me`, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    challenge: response.headers.get('www-authenticate'),
    body,
  };
}

/** Waits out the pause after a failed fetch (the refresh interval, 1 s here). */
const pause = () => new Promise((resolve) => setTimeout(resolve, 1100));

beforeAll(async () => {
  jwks = new JwksServer();
  const url = await jwks.start();
  key = await jose.generateKeyPair('RS256', { extractable: true });
  jwks.keys = [{ ...(await jose.exportJWK(key.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }];
  const overrides = {
    'framework.security.jwt.jwks-url': url,
    'framework.security.jwt.jwks-refresh-interval': '1s',
    'framework.http.rate-limit.failed-authentications': 3,
  };
  server = await RestApplication.build({ classes: [MeResource], overrides }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});

afterAll(async () => {
  jest.restoreAllMocks();
  await server.close();
  await jwks.close();
});

describe('a JWKS that cannot be read', () => {
  it.each(['down', 'garbage', 'endless'] as const)(
    'answers good tokens 503 with Retry-After while the JWKS is %s, asks it once, and counts no refusal',
    async (mode) => {
      jwks.mode = mode;
      const before = jwks.fetches;
      const replies = [];
      for (let index = 0; index < 5; index++)
        replies.push(await within(get(await sign('k1')), `token ${index}`, 10_000));
      for (const reply of replies) {
        expect(reply.status).toBe(503);
        expect(reply.retryAfter).toBe('1');
        expect(reply.challenge).toBeNull();
        expect(JSON.parse(reply.body)).toMatchObject({ code: 'RXREST_KEYS_UNAVAILABLE' });
        expect(reply.body).not.toMatch(/127\.0\.0\.1|jwks|maintenance/);
      }
      expect(jwks.fetches - before).toBe(1);
      await pause();
    },
  );

  it('admits the same tokens once the JWKS is back, the address never held back', async () => {
    jwks.mode = 'up';
    const reply = await get(await sign('k1'));
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('alice');
  });

  it('goes on with the keys last read when the JWKS fails after they aged, asking it again only after a pause', async () => {
    jwks.mode = 'down';
    const realNow = Date.now.bind(Date);
    // Eleven minutes on: the keys read above are past their ten minutes of cache.
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 11 * 60_000);
    const before = jwks.fetches;
    for (const name of ['bob', 'carol', 'dave']) {
      const reply = await get(await sign('k1', name));
      expect(reply.status).toBe(200);
      expect(reply.body).toBe(name);
    }
    expect(jwks.fetches - before).toBe(1);
    jest.restoreAllMocks();
    await pause();
  });

  it('answers kids the keys last read lack 503 while the JWKS is down, fetching it at most once, and 401 once it is read without them', async () => {
    jwks.mode = 'down';
    const before = jwks.fetches;
    // A key rotated in while the provider cannot be reached: the provider's failure, not the token's.
    for (let index = 0; index < 3; index++) {
      const reply = await get(await sign(`made-up-${index}`));
      expect(reply.status).toBe(503);
      expect(reply.retryAfter).not.toBeNull();
      expect(reply.challenge).toBeNull();
      expect(JSON.parse(reply.body)).toMatchObject({ code: 'RXREST_KEYS_UNAVAILABLE' });
    }
    expect(jwks.fetches - before).toBeLessThanOrEqual(1);
    const down = jwks.fetches;
    jwks.mode = 'up';
    await pause();
    // The clock where the test before left it (eleven minutes on), now past the pause its failed fetch began.
    const realNow = Date.now.bind(Date);
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 11 * 60_000);
    const reply = await get(await sign('made-up-0'));
    jest.restoreAllMocks();
    expect(jwks.fetches - down).toBe(1);
    expect(reply.status).toBe(401);
    expect(reply.challenge).toBe('Bearer error="invalid_token"');
  });

  it('stops admitting the keys last read once they are older than jwks-max-stale (1h), answering 503', async () => {
    await pause();
    jwks.mode = 'down';
    const realNow = Date.now.bind(Date);
    // Two hours on: a key the provider has removed meanwhile (a compromised one) must not outlive the outage.
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 2 * 60 * 60_000);
    const reply = await get(await sign('k1'));
    jest.restoreAllMocks();
    expect(reply.status).toBe(503);
    expect(reply.retryAfter).not.toBeNull();
    expect(reply.challenge).toBeNull();
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'RXREST_KEYS_UNAVAILABLE' });
  });
});
