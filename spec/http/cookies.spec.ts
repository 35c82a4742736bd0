import { NewCookie, parseCookieHeader } from '../../lib/http/cookies';

describe('parseCookieHeader', () => {
  it('reads name=value pairs separated by "; " (RFC 6265 §5.4)', () => {
    expect(parseCookieHeader('SID=31d4d96e407aad42; lang=en-US')).toEqual(
      new Map([
        ['SID', '31d4d96e407aad42'],
        ['lang', 'en-US'],
      ]),
    );
  });

  it('keeps the first of duplicate names', () => {
    expect(parseCookieHeader('a=1; a=2').get('a')).toBe('1');
  });

  it('tolerates spaces, quoted values and "=" inside values', () => {
    const cookies = parseCookieHeader('  a = 1 ;b="quoted value";c=x=y;;');
    expect([...cookies]).toEqual([
      ['a', '1'],
      ['b', 'quoted value'],
      ['c', 'x=y'],
    ]);
  });

  it('decodes percent-escapes and keeps invalid ones as sent', () => {
    expect(parseCookieHeader('Flavour=Pralin%C3%A9').get('Flavour')).toBe('Praliné');
    expect(parseCookieHeader('odd=100%').get('odd')).toBe('100%');
  });

  it('skips pairs without "=" or name, and reads empty values', () => {
    expect([...parseCookieHeader('flag; =x; empty=')]).toEqual([['empty', '']]);
  });

  it('returns an empty map for a missing header', () => {
    expect(parseCookieHeader(undefined).size).toBe(0);
    expect(parseCookieHeader(null).size).toBe(0);
    expect(parseCookieHeader('').size).toBe(0);
  });
});

describe('NewCookie', () => {
  it('writes just name=value without attributes', () => {
    expect(new NewCookie('SID', '31d4d96e407aad42').toString()).toBe('SID=31d4d96e407aad42');
  });

  it('writes every attribute in a fixed order', () => {
    const cookie = new NewCookie('SID', 'abc', {
      path: '/',
      domain: 'example.com',
      maxAge: 3600,
      expires: new Date(Date.UTC(2021, 0, 1)),
      secure: true,
      httpOnly: true,
      sameSite: 'Strict',
    });
    expect(cookie.toString()).toBe(
      'SID=abc; Path=/; Domain=example.com; Max-Age=3600; Expires=Fri, 01 Jan 2021 00:00:00 GMT; Secure; HttpOnly; SameSite=Strict',
    );
  });

  it('omits false flags and writes Max-Age=0 for deletion', () => {
    expect(new NewCookie('a', '', { maxAge: 0, secure: false, httpOnly: false }).toString()).toBe('a=; Max-Age=0');
  });

  it('percent-encodes values so Praliné survives a round trip (A8)', () => {
    const cookie = new NewCookie('Flavour', 'Praliné');
    expect(cookie.toString()).toBe('Flavour=Pralin%C3%A9');
    expect(cookie.value).toBe('Praliné');
    expect(parseCookieHeader(cookie.toString()).get('Flavour')).toBe('Praliné');
  });

  it('encodes separators, quotes, spaces and "%" so no attribute can be injected', () => {
    const value = 'a; Path=/x, "b" \\ 100% 😀';
    const text = new NewCookie('n', value).toString();
    expect(text).toBe('n=a%3B%20Path=/x%2C%20%22b%22%20%5C%20100%25%20%F0%9F%98%80');
    expect(parseCookieHeader(text).get('n')).toBe(value);
  });

  it('throws a TypeError for a name that is not a token', () => {
    for (const name of ['', 'a b', 'a=b', 'a;b', 'é', '"a"']) expect(() => new NewCookie(name, 'v')).toThrow(TypeError);
  });

  it('throws a TypeError for a path or domain that would break the header', () => {
    expect(() => new NewCookie('a', 'v', { path: '/x; Secure' })).toThrow(TypeError);
    expect(() => new NewCookie('a', 'v', { domain: 'x\r\nSet-Cookie: b=c' })).toThrow(TypeError);
  });

  it('throws a TypeError for a value that is not well-formed Unicode', () => {
    expect(() => new NewCookie('a', '\ud800')).toThrow(TypeError);
  });

  it('throws a RangeError for a fractional Max-Age or an invalid Expires', () => {
    expect(() => new NewCookie('a', 'v', { maxAge: 1.5 })).toThrow(RangeError);
    expect(() => new NewCookie('a', 'v', { expires: new Date(Number.NaN) })).toThrow(RangeError);
  });

  it('keeps a frozen copy of its options', () => {
    const options = { path: '/' };
    const cookie = new NewCookie('a', 'v', options);
    options.path = '/changed';
    expect(cookie.options.path).toBe('/');
    expect(Object.isFrozen(cookie.options)).toBe(true);
  });
});
