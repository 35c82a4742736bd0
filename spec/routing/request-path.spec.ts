import { parseRequestPath, type RequestPath } from '../../lib/routing/request-path';

function parsed(rawPath: string): { path: string; matrix: Record<string, readonly string[]> } {
  const result = parseRequestPath(rawPath) as RequestPath;
  expect(result).toBeDefined();
  return { path: result.path, matrix: Object.fromEntries(result.matrix) };
}

describe('parseRequestPath', () => {
  it('returns a plain path unchanged with no matrix parameters', () => {
    expect(parsed('/hello/stef/23')).toEqual({ path: '/hello/stef/23', matrix: {} });
    expect(parsed('/')).toEqual({ path: '/', matrix: {} });
  });

  it('reads an empty path as the root', () => {
    expect(parsed('').path).toBe('/');
    expect(parsed(';a=1')).toEqual({ path: '/', matrix: { a: ['1'] } });
  });

  it('removes matrix parameters from a middle segment', () => {
    expect(parsed('/cheeses;variant=goat/tomme')).toEqual({ path: '/cheeses/tomme', matrix: { variant: ['goat'] } });
    expect(parsed('/new-params/myklass;m=mv/myregex/params/pv')).toEqual({
      path: '/new-params/myklass/myregex/params/pv',
      matrix: { m: ['mv'] },
    });
  });

  it('removes matrix parameters from the last segment and keeps a trailing slash', () => {
    expect(parsed('/a/b;x=1')).toEqual({ path: '/a/b', matrix: { x: ['1'] } });
    expect(parsed('/a/b;x=1/')).toEqual({ path: '/a/b/', matrix: { x: ['1'] } });
  });

  it('collects parameters of all segments, repeated names in order', () => {
    expect(parsed('/a;x=1;y=2/b;x=3;z/c;x=4')).toEqual({
      path: '/a/b/c',
      matrix: { x: ['1', '3', '4'], y: ['2'], z: [''] },
    });
  });

  it('gives an empty value to a flag and to a trailing equals sign, and skips empty pairs and names', () => {
    expect(parsed('/a;flag;;e=;=v')).toEqual({ path: '/a', matrix: { flag: [''], e: [''] } });
  });

  it('keeps everything after the first equals sign in the value', () => {
    expect(parsed('/a;q=x=y')).toEqual({ path: '/a', matrix: { q: ['x=y'] } });
  });

  it('decodes matrix names and values, with encoded separators as data', () => {
    expect(parsed('/a;n%20m=caf%C3%A9%3Bx%3Dy%2F')).toEqual({ path: '/a', matrix: { 'n m': ['café;x=y/'] } });
  });

  it('decodes percent-escapes in the path, including UTF-8', () => {
    expect(parsed('/hello%20world/caf%C3%A9/%61bc').path).toBe('/hello world/café/abc');
    expect(parsed('/caf%c3%a9').path).toBe('/café');
    expect(parsed('/%F0%9F%98%80').path).toBe('/😀');
  });

  it('keeps an encoded slash inside its segment, upper-cased, and decodes an encoded semicolon as data', () => {
    expect(parsed('/files/a%2fb/c').path).toBe('/files/a%2Fb/c');
    expect(parsed('/a%3Bb')).toEqual({ path: '/a;b', matrix: {} });
  });

  it('keeps an encoded percent sign encoded so that it cannot form a new escape', () => {
    expect(parsed('/100%25').path).toBe('/100%25');
    expect(parsed('/%252F').path).toBe('/%252F');
  });

  it('decodes the path of a segment carrying matrix parameters', () => {
    expect(parsed('/caf%C3%A9;v=1/a%2Fb')).toEqual({ path: '/café/a%2Fb', matrix: { v: ['1'] } });
  });

  it('keeps empty segments rather than collapsing them', () => {
    expect(parsed('/a//b').path).toBe('/a//b');
    expect(parsed('/a/;x=1/b').path).toBe('/a//b');
  });

  it('rejects malformed escapes in the path', () => {
    for (const raw of ['/%zz', '/a%4', '/a%', '/%E0%A4', '/%C3', '/%C0%AF', '/%ED%A0%80', '/%FF', '/x;m=1/%zz']) {
      expect(parseRequestPath(raw)).toBeUndefined();
    }
  });

  it('rejects malformed escapes in matrix names and values', () => {
    expect(parseRequestPath('/a;m=%zz')).toBeUndefined();
    expect(parseRequestPath('/a;%E0%A4=1')).toBeUndefined();
    expect(parseRequestPath('/a;m=%4')).toBeUndefined();
  });

  it('returns a fresh matrix map for each path with matrix parameters', () => {
    const first = parseRequestPath('/a;x=1') as RequestPath;
    const second = parseRequestPath('/a;x=2') as RequestPath;
    expect(first.matrix).not.toBe(second.matrix);
    expect(first.matrix.get('x')).toEqual(['1']);
  });
});
