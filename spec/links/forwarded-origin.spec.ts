// The scheme and host links are made absolute with, behind proxies, over real sockets: a forwarded host or scheme is
// taken by the rule the client address is (framework.http.proxy.*): read from the right, only what a trusted proxy
// wrote, from the header family client-address-header names; in process, where no peer is known, never.
import { request } from 'node:http';
import { Readable } from 'node:stream';
import {
  Context,
  GET,
  InjectRestLinks,
  OnOpen,
  POST,
  Path,
  RestApplication,
  RestForm,
  RestLink,
  RestResponse,
  UriInfo,
  WebSocketEndpoint,
  type RunningServer,
} from '../../lib';
import { buildApp, call, withServer } from '../support/app';
import { openSocket, Refused } from '../support/ws-client';
import { within } from '../support/until';

export class Memo {
  id = '1';
}

@Path('memos')
class MemoResource {
  @GET
  @RestLink({ rel: 'list', entityType: Memo })
  @InjectRestLinks()
  list(): Memo[] {
    return [new Memo()];
  }

  @POST
  create(@Context() uriInfo: UriInfo): RestResponse<never> {
    return RestResponse.created(uriInfo.absolutePathBuilder().path('7').build()) as RestResponse<never>;
  }

  @POST
  @Path('form')
  form(@RestForm() title: string, @Context() uriInfo: UriInfo): string {
    return `${uriInfo.absolutePath.href} ${title}`;
  }
}

@WebSocketEndpoint('/ws/memos')
class MemoSocket {
  @OnOpen
  greet(): string {
    return 'hello';
  }
}

/** The `Link` of `GET /memos` sent from 127.0.0.1 with `headers`. */
function linkOf(server: RunningServer, headers: Record<string, string>): Promise<string | undefined> {
  return within(
    new Promise((resolve, reject) => {
      const sent = request(`${server.url}/memos`, { headers }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.headers.link as string | undefined));
      });
      sent.on('error', reject);
      sent.end();
    }),
    'the answer to GET /memos',
  );
}

/** Runs `use` against a server of MemoResource and MemoSocket behind proxies as `overrides` configure them. */
function behindProxies(overrides: Record<string, string>, use: (server: RunningServer) => Promise<void>) {
  const app = RestApplication.build({
    classes: [MemoResource, MemoSocket],
    overrides: { 'framework.http.proxy.proxy-address-forwarding': 'true', ...overrides },
  });
  return withServer(app, use);
}

const list = (origin: string) => `<${origin}/memos>; rel="list"`;

describe('the forwarded origin of links', () => {
  it('takes what the proxy appended, never the client’s own entry on the left', async () => {
    await behindProxies({}, async (server) => {
      const headers = {
        'x-forwarded-for': '198.51.100.1, 203.0.113.9',
        'x-forwarded-host': 'evil.example, api.example',
        'x-forwarded-proto': 'http, https',
      };
      expect(await linkOf(server, headers)).toBe(list('https://api.example'));
    });
  });

  it('walks back over the trusted proxies only, as the client address does', async () => {
    const headers = {
      'x-forwarded-for': '203.0.113.9, 10.0.0.2',
      'x-forwarded-host': 'public.example, internal.example',
    };
    await behindProxies({ 'framework.http.proxy.trusted-proxies': '127.0.0.1, 10.0.0.0/8' }, async (server) => {
      expect(await linkOf(server, headers)).toBe(list('http://public.example'));
    });
    await behindProxies({ 'framework.http.proxy.trusted-proxies': '127.0.0.1' }, async (server) => {
      expect(await linkOf(server, headers)).toBe(list('http://internal.example'));
    });
  });

  it('ignores every forwarded value from a peer that is not a trusted proxy', async () => {
    await behindProxies({ 'framework.http.proxy.trusted-proxies': '10.0.0.0/8' }, async (server) => {
      const headers = {
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        forwarded: 'host=evil.example',
      };
      expect(await linkOf(server, headers)).toBe(list(server.url));
    });
  });

  it('reads host= and proto= of Forwarded the same way when it is the configured header, and X-Forwarded-* not', async () => {
    await behindProxies({ 'framework.http.proxy.client-address-header': 'forwarded' }, async (server) => {
      const forwarded = 'for=198.51.100.1;host=evil.example;proto=http, for=203.0.113.9;host="api.example";proto=https';
      expect(await linkOf(server, { forwarded })).toBe(list('https://api.example'));
      expect(await linkOf(server, { 'x-forwarded-host': 'evil.example' })).toBe(list(server.url));
    });
    await behindProxies({}, async (server) => {
      expect(await linkOf(server, { forwarded: 'host=evil.example;proto=https' })).toBe(list(server.url));
    });
  });

  it('ignores forwarding headers in process, where no proxy can be told from a client', async () => {
    const app = buildApp([MemoResource], { 'framework.http.proxy.proxy-address-forwarding': 'true' });
    const answer = await call(app, '/memos', { headers: { 'x-forwarded-host': 'evil.example' } });
    expect(answer.headers.get('link')).toBe(list('http://localhost'));
  });

  it('lets a WebSocket upgrade count as same-origin only for the host a trusted proxy forwarded', async () => {
    await behindProxies({}, async (server) => {
      const open = (origin: string, forwardedHost: string) => {
        const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/memos`, {
          origin,
          headers: { 'x-forwarded-host': forwardedHost },
        });
        return socket.opened.then(
          () => (socket.socket.close(), 'opened'),
          (error: unknown) => (error instanceof Refused ? error.status : Promise.reject(error)),
        );
      };
      expect(await open('https://evil.example', 'evil.example, chat.example')).toBe(403);
      expect(await open('https://chat.example', 'evil.example, chat.example')).toBe('opened');
    });
  });
});

/** The `Location` of `POST /memos` (made with `UriInfo`) and the CORS verdict on `origin`, sent with `headers`. */
function locationOf(server: RunningServer, headers: Record<string, string>): Promise<string | undefined> {
  return within(
    new Promise((resolve, reject) => {
      const sent = request(`${server.url}/memos`, { method: 'POST', headers }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.headers.location));
      });
      sent.on('error', reject);
      sent.end();
    }),
    'the answer to POST /memos',
  );
}

describe('the forwarded origin of the request URL', () => {
  const forwarded = { 'x-forwarded-host': 'api.example', 'x-forwarded-proto': 'https' };

  it('is what UriInfo makes absolute URLs with: a Location names the origin the client asked for', async () => {
    await behindProxies({}, async (server) => {
      expect(await locationOf(server, forwarded)).toBe('https://api.example/memos/7');
      expect(await locationOf(server, {})).toBe(`${server.url}/memos/7`);
    });
    await behindProxies({ 'framework.http.proxy.trusted-proxies': '10.0.0.0/8' }, async (server) => {
      expect(await locationOf(server, forwarded)).toBe(`${server.url}/memos/7`);
    });
  });

  it('is the origin CORS tells same-origin requests by', async () => {
    const overrides = { 'framework.http.cors.enabled': 'true', 'framework.http.cors.origins': 'https://other.example' };
    await behindProxies(overrides, async (server) => {
      const preflight = (origin: string) =>
        fetch(`${server.url}/memos`, {
          method: 'OPTIONS',
          headers: { ...forwarded, origin, 'access-control-request-method': 'POST' },
        }).then((answer) => answer.status);
      // The page of the origin the proxy serves is this server's own: never refused as a cross-origin one.
      expect(await preflight('https://api.example')).not.toBe(403);
      expect(await preflight('https://evil.example')).toBe(403);
    });
  });

  it('ignores a forwarded host or port no URL can hold, as any other malformed one: no 500', async () => {
    await behindProxies({}, async (server) => {
      // Each passes the host syntax (a proxy may copy the client's Host into X-Forwarded-Host), but no URL parses it.
      for (const host of ['api.example:99999', '999.999.999.999', 'xn--a']) {
        expect(await locationOf(server, { 'x-forwarded-host': host })).toBe(`${server.url}/memos/7`);
      }
      expect(await locationOf(server, { 'x-forwarded-port': '99999' })).toBe(`${server.url}/memos/7`);
      expect(await locationOf(server, { 'x-forwarded-host': 'API.example', 'x-forwarded-port': '8443' })).toBe(
        'http://api.example:8443/memos/7',
      );
    });
  });

  it('leaves the request the one received: its body is still read from Node, not through a Web stream', async () => {
    await behindProxies({}, async (server) => {
      const fromWeb = jest.spyOn(Readable, 'fromWeb');
      const body = new FormData();
      body.append('title', 'T');
      try {
        const answer = await fetch(`${server.url}/memos/form`, { method: 'POST', headers: forwarded, body });
        expect(await answer.text()).toBe('https://api.example/memos/form T');
        expect(fromWeb).not.toHaveBeenCalled();
      } finally {
        fromWeb.mockRestore();
      }
    });
  });

  it('stays the configured public base URL whatever the proxies forwarded', async () => {
    await behindProxies({ 'framework.http.public-base-url': 'https://public.example' }, async (server) => {
      expect(await locationOf(server, forwarded)).toBe('https://public.example/memos/7');
    });
  });
});
