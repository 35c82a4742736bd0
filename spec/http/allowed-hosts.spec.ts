// The grammar of framework.http.allowed-hosts and framework.http.public-base-url, as pure functions.
import { allowedHosts, hostRules, invalidHostEntries, publicOrigin } from '../../lib/http/allowed-hosts';

describe('allowedHosts', () => {
  const allows = allowedHosts(['api.example.com', '*.example.org', 'localhost:8080', '[::1]', '10.0.0.5']);

  it('matches a name at any port, without case and with a final dot', () => {
    expect(['api.example.com', 'API.EXAMPLE.COM:443', 'api.example.com.'].map(allows)).toEqual([true, true, true]);
    expect(['example.com', 'xapi.example.com', 'api.example.com.evil'].map(allows)).toEqual([false, false, false]);
  });

  it('matches names below a *. entry, not the domain itself', () => {
    expect(['eu.example.org', 'a.b.example.org:8443', 'example.org', 'evilexample.org'].map(allows)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('matches a name:port entry at that port only, and IP literals', () => {
    expect(['localhost:8080', 'localhost', 'localhost:80'].map(allows)).toEqual([true, false, false]);
    expect(['[::1]:8080', '[::1]', '10.0.0.5:9', '10.0.0.6'].map(allows)).toEqual([true, true, true, false]);
  });

  it('answers the same host again from its last verdict, and another host afresh', () => {
    expect([allows('evil.example'), allows('evil.example'), allows('api.example.com'), allows('evil.example')]).toEqual(
      [false, false, true, false],
    );
  });

  it('allows every host with *', () => {
    expect(allowedHosts(['*'])('anything.example')).toBe(true);
  });
});

describe('invalidHostEntries', () => {
  it('lists what is not a host pattern', () => {
    expect(invalidHostEntries(['api.example.com', 'a.*.com', 'x/y', 'host:port', '*', '*.ok.org'])).toEqual([
      'a.*.com',
      'x/y',
      'host:port',
    ]);
  });
});

describe('publicOrigin', () => {
  it('reads an http(s) origin and leaves out a default port', () => {
    expect(publicOrigin('https://api.example.com:443/')).toEqual({
      scheme: 'https',
      host: 'api.example.com',
      origin: 'https://api.example.com',
    });
    expect(publicOrigin('http://api.example.com:8080')?.host).toBe('api.example.com:8080');
  });

  it('refuses a path, a query, credentials or another scheme', () => {
    for (const url of [
      'https://a.example/v1',
      'https://a.example/?x=1',
      'https://u:p@a.example',
      'ftp://a.example',
      'a.example',
    ])
      expect(publicOrigin(url)).toBeUndefined();
  });
});

describe('hostRules', () => {
  it('is undefined when neither setting is set, so that requests pay nothing', () => {
    expect(hostRules([], undefined)).toBeUndefined();
    expect(hostRules(['a.example'], undefined)?.allows?.('a.example')).toBe(true);
    expect(hostRules([], 'https://a.example')).toEqual({
      allows: undefined,
      public: publicOrigin('https://a.example'),
    });
  });
});
