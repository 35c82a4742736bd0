// Cross-site WebSocket hijacking, over real sockets: a browser lets any page open a socket to any host, sending that
// host's cookies, and says which page in `Origin`. Upgrades are refused 403 unless they come from the socket's own
// origin (its Host), from an origin the CORS rules or framework.websocket.allowed-origins admit, or with no Origin at
// all (a client that is no browser) — with CORS off, the default, and in a real browser too.
import {
  Authenticated,
  OnOpen,
  RestApplication,
  WebSocketEndpoint,
  type AuthenticationMechanism,
  type RunningServer,
  SecurityContext,
} from '../../lib';
import { withServer } from '../support/app';
import { pageResult } from '../support/chromium';
import { openSocket, Refused } from '../support/ws-client';

/** Signs a caller in by a session cookie, as a browser application would. */
const sessionCookie: AuthenticationMechanism = {
  scheme: 'Session',
  challenge: 'Session',
  hasCredential: (ctx) => /(^|;\s*)session=/.test(ctx.headerValue('cookie') ?? ''),
  authenticate: () => ({ principal: { name: 'victim', claims: {} }, roles: [] }),
};

let opened = 0;

@Authenticated
@WebSocketEndpoint('/ws/account')
class AccountSocket {
  @OnOpen
  greet(security: SecurityContext): string {
    opened++;
    return `hello ${security.userPrincipal!.name}`;
  }
}

/** A socket anyone may open: what a page of another site reaches when the browser lets it. */
@WebSocketEndpoint('/ws/open')
class OpenSocket {
  @OnOpen
  greet(): string {
    opened++;
    return 'hello anyone';
  }
}

function serving(overrides: Record<string, string>, run: (server: RunningServer) => Promise<void>): Promise<void> {
  const app = RestApplication.build({
    classes: [AccountSocket, OpenSocket],
    overrides,
    authentication: [sessionCookie],
  });
  return withServer(app, run);
}

const wsUrl = (server: RunningServer) => `${server.url.replace(/^http/, 'ws')}/ws/account`;

/** The first message of a socket opened with the victim's cookie from `origin` (no Origin when undefined). */
async function greetingFrom(server: RunningServer, origin?: string, headers: Record<string, string> = {}) {
  const socket = openSocket(wsUrl(server), { origin, headers: { cookie: 'session=s3cr3t', ...headers } });
  await socket.opened;
  const greeting = await socket.next();
  socket.socket.close();
  return greeting;
}

/** The refusal of a socket opened with the victim's cookie from `origin`. */
async function refusalFrom(server: RunningServer, origin: string): Promise<Refused> {
  const socket = openSocket(wsUrl(server), { origin, headers: { cookie: 'session=s3cr3t' } });
  const refusal = await socket.opened.then(
    () => new Error('the socket opened'),
    (error: unknown) => error,
  );
  if (!(refusal instanceof Refused)) throw refusal;
  return refusal;
}

describe('the Origin of a WebSocket upgrade', () => {
  it('refuses another site with CORS off, 403 problem JSON, before any method or credential is used', async () => {
    await serving({}, async (server) => {
      const before = opened;
      const refusal = await refusalFrom(server, 'https://evil.example');
      expect(refusal.status).toBe(403);
      expect(JSON.parse(refusal.body)).toMatchObject({ status: 403, code: 'RXREST_FORBIDDEN' });
      expect((await refusalFrom(server, 'null')).status).toBe(403);
      expect(opened).toBe(before);
    });
  });

  it('accepts its own origin (the Host it was opened on) and clients that send no Origin', async () => {
    await serving({}, async (server) => {
      expect(await greetingFrom(server, server.url)).toBe('hello victim');
      expect(await greetingFrom(server, server.url.toUpperCase().replace('HTTP', 'http'))).toBe('hello victim');
      expect(await greetingFrom(server, undefined)).toBe('hello victim');
      // Behind a TLS proxy the page is https while the server is reached over http: the host decides.
      const host = new URL(server.url).host;
      expect(await greetingFrom(server, `https://${host}`)).toBe('hello victim');
    });
  });

  it('accepts the origins of framework.websocket.allowed-origins (exact or /regex/), or any with *', async () => {
    const allowed = {
      'framework.websocket.allowed-origins': 'https://app.example,/https://[a-z]+\\.preview\\.example/',
    };
    await serving(allowed, async (server) => {
      expect(await greetingFrom(server, 'https://app.example')).toBe('hello victim');
      expect(await greetingFrom(server, 'https://review.preview.example')).toBe('hello victim');
      expect((await refusalFrom(server, 'https://review.preview.example.evil')).status).toBe(403);
      expect((await refusalFrom(server, 'null')).status).toBe(403);
    });
    await serving({ 'framework.websocket.allowed-origins': '*' }, async (server) => {
      expect(await greetingFrom(server, 'https://anywhere.example')).toBe('hello victim');
    });
  });

  it('accepts the origins CORS allows when CORS is on', async () => {
    const cors = { 'framework.http.cors.enabled': 'true', 'framework.http.cors.origins': 'https://app.example' };
    await serving(cors, async (server) => {
      expect(await greetingFrom(server, 'https://app.example')).toBe('hello victim');
      expect((await refusalFrom(server, 'https://evil.example')).status).toBe(403);
    });
  });

  it("behind a trusted proxy, accepts the forwarded host's origin", async () => {
    await serving({ 'framework.http.proxy.proxy-address-forwarding': 'true' }, async (server) => {
      const forwarded = { 'x-forwarded-host': 'chat.example', 'x-forwarded-proto': 'https' };
      expect(await greetingFrom(server, 'https://chat.example', forwarded)).toBe('hello victim');
    });
  });

  it('keeps a page of another origin in a real browser from opening the socket', async () => {
    await serving({}, async (server) => {
      const before = opened;
      const page = `<!doctype html><html><body><script>
const socket = new WebSocket(new URLSearchParams(location.search).get('ws'));
const report = (what) => fetch('/result', { method: 'POST', body: what });
socket.onmessage = (event) => report('opened: ' + event.data);
socket.onerror = () => report('refused');
</script></body></html>`;
      const ws = `${server.url.replace(/^http/, 'ws')}/ws/open`;
      expect(await pageResult(page, `?ws=${encodeURIComponent(ws)}`)).toBe('refused');
      expect(opened).toBe(before);
    });
  }, 60_000);
});
