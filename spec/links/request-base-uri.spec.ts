import { parseForwarded, requestOrigin } from '../../lib/links/request-base-uri';

describe('parseForwarded', () => {
  it('reads proto and host from the first element only', () => {
    expect(parseForwarded('for=1.2.3.4;proto=https;host=api.example, proto=http;host=other')).toEqual({
      proto: 'https',
      host: 'api.example',
    });
  });

  it('unquotes quoted values and ignores parameter case', () => {
    expect(parseForwarded('For="[2001:db8::1]:4711";Proto="https";HOST="a.example:8443"')).toEqual({
      proto: 'https',
      host: 'a.example:8443',
    });
  });

  it('keeps commas inside quoted strings within the first element', () => {
    expect(parseForwarded('for="a,b";host=first.example, host=second.example')).toEqual({ host: 'first.example' });
  });

  it('answers nothing for an absent or empty header', () => {
    expect(parseForwarded(null)).toEqual({});
    expect(parseForwarded('')).toEqual({});
  });
});

describe('requestOrigin', () => {
  const forwarded = new Headers({
    forwarded: 'proto=https;host=api.example',
    'x-forwarded-proto': 'http',
    'x-forwarded-host': 'x.example',
  });

  it('uses the request URL when forwarding is off, whatever the headers say', () => {
    expect(requestOrigin('http://10.0.0.5:8080/records?q=1', forwarded, false)).toBe('http://10.0.0.5:8080');
  });

  it('prefers Forwarded over X-Forwarded-* when forwarding is on', () => {
    expect(requestOrigin('http://10.0.0.5:8080/records', forwarded, true)).toBe('https://api.example');
  });

  it('falls back to X-Forwarded-Proto, -Host and -Port', () => {
    const headers = new Headers({
      'x-forwarded-proto': 'https, http',
      'x-forwarded-host': 'edge.example',
      'x-forwarded-port': '8443',
    });
    expect(requestOrigin('http://10.0.0.5:8080/', headers, true)).toBe('https://edge.example:8443');
  });

  it('replaces the own port with X-Forwarded-Port and drops a default one', () => {
    expect(requestOrigin('http://localhost:8080/', new Headers({ 'x-forwarded-port': '9090' }), true)).toBe(
      'http://localhost:9090',
    );
    expect(
      requestOrigin(
        'http://localhost:8080/',
        new Headers({ 'x-forwarded-proto': 'https', 'x-forwarded-port': '443' }),
        true,
      ),
    ).toBe('https://localhost');
  });

  it('ignores forwarded values that are not an http(s) scheme or a plain host', () => {
    const headers = new Headers({ 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example/path' });
    expect(requestOrigin('http://localhost:8080/', headers, true)).toBe('http://localhost:8080');
  });
});
