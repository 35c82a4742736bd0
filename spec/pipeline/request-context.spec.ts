import { RequestContext } from '../../lib';

describe('RequestContext', () => {
  const at = (url: string) => new RequestContext(new Request(url));

  it('splits the URL into raw path and raw query', () => {
    const ctx = at('http://host:8080/a%20b;m=1/c?x=1&y=2#frag');
    expect(ctx.rawPath).toBe('/a%20b;m=1/c');
    expect(ctx.rawQuery).toBe('x=1&y=2');
    expect(at('http://host').rawPath).toBe('/');
  });

  it.each([
    ['a=1&a=2&b=', 'a', ['1', '2']],
    ['a=1&a=2&b=', 'b', ['']],
    ['flag', 'flag', ['']],
    ['q=hello+world&q=%C3%A9t%C3%A9', 'q', ['hello world', 'été']],
    ['bad=%zz%41', 'bad', ['%zzA']],
    ['%61=decoded-name', 'a', ['decoded-name']],
    ['a=1', 'missing', undefined],
  ])('reads query %s: %s → %j, as URLSearchParams would', (query, name, expected) => {
    const ctx = at(`http://host/p?${query}`);
    expect(ctx.queryValues(name)).toEqual(expected);
    const reference = new URLSearchParams(query).getAll(name);
    expect(ctx.queryValues(name) ?? []).toEqual(reference);
  });

  it('reads the new query after setRequestUri', () => {
    const ctx = at('http://host/p?a=1');
    expect(ctx.queryValues('a')).toEqual(['1']);
    ctx.setRequestUri('/q?a=2');
    expect(ctx.queryValues('a')).toEqual(['2']);
    expect(ctx.rawPath).toBe('/q');
  });

  it('keeps request headers untouched when a filter sets one', () => {
    const request = new Request('http://host/', { headers: { 'x-a': '1' } });
    const ctx = new RequestContext(request);
    ctx.setHeader('x-a', '2');
    ctx.setHeader('x-b', '3');
    expect(ctx.header('x-a')).toBe('2');
    expect(ctx.header('x-b')).toBe('3');
    expect(request.headers.get('x-a')).toBe('1');
  });
});
