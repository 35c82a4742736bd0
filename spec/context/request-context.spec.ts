import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
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

  it('upper-cases a method sent in another case, and keeps the usual ones', () => {
    const method = (name: string) => new RequestContext(new Request('http://host/', { method: name })).method;
    // Request leaves PATCH and extension methods as sent (Fetch only normalizes DELETE GET HEAD OPTIONS POST PUT).
    expect([method('patch'), method('PATCH'), method('get'), method('Propfind')]).toEqual([
      'PATCH',
      'PATCH',
      'GET',
      'PROPFIND',
    ]);
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

describe('RequestContext.headerValue under @hono/node-server', () => {
  // What @hono/node-server passes as the environment: the Node request whose raw header list is read.
  function served(rawHeaders: string[], init: ConstructorParameters<typeof Headers>[0] = {}): RequestContext {
    const incoming = new IncomingMessage(new Socket());
    incoming.rawHeaders = rawHeaders;
    return new RequestContext(new Request('http://host/p', { headers: init }), {
      incoming,
      outgoing: new ServerResponse(incoming),
    });
  }

  it('reads a header sent once from the raw list, whatever its case, and null for one not sent', () => {
    const ctx = served(['Host', 'host', 'ACCEPT', 'text/plain'], { accept: 'ignored/by-the-raw-path' });
    expect(ctx.headerValue('accept')).toBe('text/plain');
    expect(ctx.headerValue('content-type')).toBeNull();
  });

  it('answers a repeated header as Headers joins it', () => {
    const ctx = served(
      ['X-Token', 'a', 'x-token', 'b'],
      [
        ['x-token', 'a'],
        ['x-token', 'b'],
      ],
    );
    expect(ctx.headerValue('x-token')).toBe('a, b');
  });

  it('follows a header set by a filter, and a request replaced by setRequestUri', () => {
    const set = served(['Accept', 'text/plain']);
    set.setHeader('accept', 'application/json');
    expect(set.headerValue('accept')).toBe('application/json');
    const moved = served(['Accept', 'text/plain'], { accept: 'text/html' });
    moved.setRequestUri('/q');
    expect(moved.headerValue('accept')).toBe('text/html');
  });

  it('reads the Web request headers in process (no Node request)', () => {
    expect(
      new RequestContext(new Request('http://host/', { headers: { accept: 'text/csv' } })).headerValue('accept'),
    ).toBe('text/csv');
  });
});
