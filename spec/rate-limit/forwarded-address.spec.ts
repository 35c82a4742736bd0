// The address a client counts against behind proxies, over real sockets: the hop the nearest untrusted party wrote,
// read from the right of X-Forwarded-For (or Forwarded), so a client that writes a new value on the left of the header
// with every request still meets its 429; headers from a peer that is not a trusted proxy are not believed.
import { ConfigError, GET, Path, RateLimit, RestApplication, type RunningServer } from '../../lib';
import { withServer } from '../support/app';
import { send } from '../support/http';

@Path('quota')
class QuotaResource {
  @GET
  @RateLimit({ requests: 3, window: '10s' })
  take(): string {
    return 'ok';
  }
}

function serving(overrides: Record<string, string>, run: (server: RunningServer) => Promise<void>): Promise<void> {
  const settings = { 'framework.http.proxy.proxy-address-forwarding': 'true', ...overrides };
  return withServer(RestApplication.build({ classes: [QuotaResource], overrides: settings }), run);
}

/** The statuses of `count` requests in turn, each with the headers `headersOf(n)` gives. */
async function statuses(
  server: RunningServer,
  count: number,
  headersOf: (n: number) => Record<string, string>,
): Promise<number[]> {
  const seen: number[] = [];
  for (let n = 0; n < count; n++) seen.push((await send(`${server.url}/quota`, 'GET', headersOf(n))).status);
  return seen;
}

const LIMITED = [200, 200, 200, 429, 429, 429];

describe('the client address behind proxies', () => {
  it('takes the hop the proxy appended, not the one the client wrote on the left', async () => {
    await serving({}, async (server) => {
      const spoofing = (n: number) => ({ 'x-forwarded-for': `198.18.0.${n}, 203.0.113.7` });
      expect(await statuses(server, 6, spoofing)).toEqual(LIMITED);
      // Another client behind the same proxy counts on its own.
      expect(await statuses(server, 1, () => ({ 'x-forwarded-for': '203.0.113.8' }))).toEqual([200]);
    });
  });

  it('skips the trusted proxies, IPv4 and IPv6, from the right', async () => {
    const trusted = { 'framework.http.proxy.trusted-proxies': '127.0.0.0/8, 10.0.0.0/8, 2001:db8:1::/48' };
    await serving(trusted, async (server) => {
      const chain = (n: number) => ({ 'x-forwarded-for': `198.18.0.${n}, 203.0.113.9, 2001:db8:1::4, 10.0.0.2` });
      expect(await statuses(server, 6, chain)).toEqual(LIMITED);
      const ipv6Client = (n: number) => ({ 'x-forwarded-for': `198.18.1.${n}, 2001:db8:2::9, 10.0.0.2` });
      expect(await statuses(server, 6, ipv6Client)).toEqual(LIMITED);
    });
  });

  it('believes no header from a peer outside the trusted proxies: the peer is the client', async () => {
    await serving({ 'framework.http.proxy.trusted-proxies': '10.0.0.0/8' }, async (server) => {
      const forged = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });
      expect(await statuses(server, 6, forged)).toEqual(LIMITED);
    });
  });

  it('reads Forwarded (RFC 7239) when the proxies write it, and then ignores X-Forwarded-For', async () => {
    await serving({ 'framework.http.proxy.client-address-header': 'forwarded' }, async (server) => {
      const forwarded = (n: number) => ({
        forwarded: `for=198.18.2.${n};proto=https, for="[2001:db8::7]:4711"`,
        'x-forwarded-for': `198.18.3.${n}`,
      });
      expect(await statuses(server, 6, forwarded)).toEqual(LIMITED);
    });
  });

  it('trusts a proxy on IPv6 loopback, the peer seen as ::1', async () => {
    const app = RestApplication.build({
      classes: [QuotaResource],
      overrides: {
        'framework.http.proxy.proxy-address-forwarding': 'true',
        'framework.http.proxy.trusted-proxies': '::1',
      },
    });
    const server = await app.listen({ port: 0, host: '::1', handleSignals: false });
    try {
      const chain = (n: number) => ({ 'x-forwarded-for': `198.18.4.${n}, 192.0.2.44` });
      expect(await statuses(server, 6, chain)).toEqual(LIMITED);
    } finally {
      await server.close();
    }
  });

  it('counts IPv6 clients by their /64: new addresses of one network meet the same 429, another network its own', async () => {
    await serving({}, async (server) => {
      // One host may take any of the 2^64 addresses of its network: each request from a new one.
      const rotating = (n: number) => ({ 'x-forwarded-for': `2001:db8:7:1:${n.toString(16)}::${n + 1}` });
      expect(await statuses(server, 6, rotating)).toEqual(LIMITED);
      expect(await statuses(server, 1, () => ({ 'x-forwarded-for': '2001:db8:7:2::1' }))).toEqual([200]);
      // An IPv4 client is still one address.
      expect(await statuses(server, 1, () => ({ 'x-forwarded-for': '203.0.113.70' }))).toEqual([200]);
      expect(await statuses(server, 1, () => ({ 'x-forwarded-for': '203.0.113.71' }))).toEqual([200]);
    });
  });

  it('groups IPv6 clients by framework.http.rate-limit.ipv6-prefix-length', async () => {
    await serving({ 'framework.http.rate-limit.ipv6-prefix-length': '128' }, async (server) => {
      const rotating = (n: number) => ({ 'x-forwarded-for': `2001:db8:8:1::${n + 1}` });
      expect(await statuses(server, 4, rotating)).toEqual([200, 200, 200, 200]);
    });
    await serving({ 'framework.http.rate-limit.ipv6-prefix-length': '48' }, async (server) => {
      const rotating = (n: number) => ({ 'x-forwarded-for': `2001:db8:9:${n + 1}::1` });
      expect(await statuses(server, 6, rotating)).toEqual(LIMITED);
    });
  });

  it('refuses to start on a trusted-proxies entry that is no address or block, naming it', () => {
    const build = () =>
      RestApplication.build({
        classes: [QuotaResource],
        overrides: { 'framework.http.proxy.trusted-proxies': '10.0.0.0/8,proxy.internal' },
      });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/framework\.http\.proxy\.trusted-proxies.*"proxy\.internal" is neither an IP address/);
  });
});
