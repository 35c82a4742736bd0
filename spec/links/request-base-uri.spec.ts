import { forwardedElements } from '../../lib/http/forwarded-for';
import { requestOrigin, type ForwardingRules } from '../../lib/links/request-base-uri';

/** One proxy in front, whatever its address: the peer's word is taken, nobody else's (the default rule). */
const peerOnly = (header: ForwardingRules['header'] = 'x-forwarded-for'): ForwardingRules => ({
  header,
  trusted: (_address, hop) => hop === 0,
});
const from = (headers: Record<string, string>, url = 'http://10.0.0.5:8080/records') => ({
  url,
  headers: new Headers(headers),
  peer: '10.0.0.1',
});

describe('forwardedElements', () => {
  it('reads the parameters of every element, names without case, quoted values as they came', () => {
    expect(
      forwardedElements('For="[2001:db8::1]:4711";Proto=https;HOST="a.example:8443", for=1.2.3.4;host=b').map((e) =>
        Object.fromEntries(e),
      ),
    ).toEqual([
      { for: '"[2001:db8::1]:4711"', proto: 'https', host: '"a.example:8443"' },
      { for: '1.2.3.4', host: 'b' },
    ]);
  });

  it('keeps commas and semicolons inside quoted strings, and the first of a repeated name', () => {
    expect(forwardedElements('for="a,b;c";host=x;host=y').map((e) => Object.fromEntries(e))).toEqual([
      { for: '"a,b;c"', host: 'x' },
    ]);
  });
});

describe('requestOrigin', () => {
  it('uses the request URL when forwarding is off or no peer is known, whatever the headers say', () => {
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'x.example' };
    expect(requestOrigin(from(headers, 'http://10.0.0.5:8080/records?q=1'), undefined)).toBe('http://10.0.0.5:8080');
    expect(requestOrigin({ ...from(headers), peer: undefined }, peerOnly())).toBe('http://10.0.0.5:8080');
  });

  it('reads only the family the rules name', () => {
    const headers = { forwarded: 'proto=https;host=api.example', 'x-forwarded-host': 'x.example' };
    expect(requestOrigin(from(headers), peerOnly('forwarded'))).toBe('https://api.example');
    expect(requestOrigin(from(headers), peerOnly())).toBe('http://x.example');
  });

  it('takes X-Forwarded-Proto, -Host and -Port from the right, as far as trusted proxies wrote them', () => {
    const headers = {
      'x-forwarded-proto': 'http, https',
      'x-forwarded-host': 'evil.example, edge.example',
      'x-forwarded-port': '1, 8443',
    };
    expect(requestOrigin(from(headers), peerOnly())).toBe('https://edge.example:8443');
    const chain = { ...headers, 'x-forwarded-for': '203.0.113.9, 10.0.0.2' };
    const inner = { header: 'x-forwarded-for', trusted: (address: string) => address.startsWith('10.') } as const;
    expect(requestOrigin(from(chain), inner)).toBe('http://evil.example:1');
    expect(requestOrigin(from(chain), { ...inner, trusted: () => false })).toBe('http://10.0.0.5:8080');
  });

  it('takes Forwarded host= and proto= from the outermost trusted element that has them, unquoted', () => {
    const forwarded =
      'for=198.51.100.1;host=evil.example, for=203.0.113.9;host="api.example:8443";proto=https, for=10.0.0.2';
    const trusted = { header: 'forwarded', trusted: (address: string) => address.startsWith('10.') } as const;
    expect(requestOrigin(from({ forwarded }), trusted)).toBe('https://api.example:8443');
  });

  it('replaces the own port with X-Forwarded-Port and drops a default one', () => {
    expect(requestOrigin(from({ 'x-forwarded-port': '9090' }, 'http://localhost:8080/'), peerOnly())).toBe(
      'http://localhost:9090',
    );
    expect(
      requestOrigin(
        from({ 'x-forwarded-proto': 'https', 'x-forwarded-port': '443' }, 'http://localhost:8080/'),
        peerOnly(),
      ),
    ).toBe('https://localhost');
  });

  it('ignores forwarded values that are not an http(s) scheme or a plain host, or a host not allowed', () => {
    const headers = { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example/path' };
    expect(requestOrigin(from(headers, 'http://localhost:8080/'), peerOnly())).toBe('http://localhost:8080');
    const allows = (host: string) => host === 'api.example';
    expect(requestOrigin(from({ 'x-forwarded-host': 'evil.example' }), peerOnly(), allows)).toBe(
      'http://10.0.0.5:8080',
    );
    expect(requestOrigin(from({ 'x-forwarded-host': 'api.example' }), peerOnly(), allows)).toBe('http://api.example');
  });
});
