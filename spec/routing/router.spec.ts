import { compilePathTemplate, joinPaths } from '../../lib/routing/path-template';
import { parseRequestPath, type RequestPath } from '../../lib/routing/request-path';
import { Router, type RouteMatch } from '../../lib/routing/router';

function routerOf(routes: [template: string, value: string][]): Router<string> {
  const router = new Router<string>();
  for (const [template, value] of routes) router.add(compilePathTemplate(template), value);
  router.freeze();
  return router;
}

function summary(matches: readonly RouteMatch<string>[]): [string, string[], Record<string, string>][] {
  return matches.map((match) => [match.template.template, [...match.values], { ...match.params }]);
}

function requestPath(raw: string): string {
  return (parseRequestPath(raw) as RequestPath).path;
}

describe('Router', () => {
  it('serves the spec example: class template and {name}/{age:\\d+} apart, 0x23 unmatched', () => {
    const router = routerOf([
      [joinPaths('hello'), 'hello'],
      [joinPaths('hello', '{name}/{age:\\d+}'), 'helloAge'],
    ]);
    expect(summary(router.match('/hello/stef/23'))).toEqual([
      ['/hello/{name}/{age:\\d+}', ['helloAge'], { name: 'stef', age: '23' }],
    ]);
    expect(summary(router.match('/hello'))).toEqual([['/hello', ['hello'], {}]]);
    expect(router.match('/hello/stef/0x23')).toEqual([]);
    expect(router.match('/missing')).toEqual([]);
  });

  it('lets /{id: \\d+} and /{slug: [a-zA-Z-]+} coexist', () => {
    const router = routerOf([
      ['/records/{id: \\d+}', 'byId'],
      ['/records/{slug: [a-zA-Z-]+}', 'bySlug'],
    ]);
    expect(summary(router.match('/records/1'))).toEqual([['/records/{id: \\d+}', ['byId'], { id: '1' }]]);
    expect(summary(router.match('/records/first'))).toEqual([
      ['/records/{slug: [a-zA-Z-]+}', ['bySlug'], { slug: 'first' }],
    ]);
  });

  it('returns a literal route before a template route matching the same path, and both', () => {
    const router = routerOf([
      ['/a/{x}', 'GET'],
      ['/a/b', 'POST'],
    ]);
    expect(summary(router.match('/a/b'))).toEqual([
      ['/a/b', ['POST'], {}],
      ['/a/{x}', ['GET'], { x: 'b' }],
    ]);
    expect(summary(router.match('/a/c'))).toEqual([['/a/{x}', ['GET'], { x: 'c' }]]);
  });

  it('puts more literal characters first', () => {
    const router = routerOf([
      ['/customers/{id}/{sub}', 'generic'],
      ['/customers/{id}/orders', 'orders'],
    ]);
    expect(router.match('/customers/7/orders').map((match) => match.values[0])).toEqual(['orders', 'generic']);
  });

  it('puts more variables first at equal literal characters', () => {
    const router = routerOf([
      ['/x/{ab}', 'one'],
      ['/x/{a}{b}', 'two'],
    ]);
    expect(router.match('/x/pq').map((match) => match.values[0])).toEqual(['two', 'one']);
  });

  it('puts more regex variables first at equal literals and variables', () => {
    const router = routerOf([
      ['/y/{name}', 'plain'],
      ['/y/{id: \\d+}', 'regex'],
    ]);
    expect(router.match('/y/12').map((match) => match.values[0])).toEqual(['regex', 'plain']);
    expect(router.match('/y/ab').map((match) => match.values[0])).toEqual(['plain']);
  });

  it('breaks full ties by registration order, keeping each template its own names', () => {
    const router = routerOf([
      ['v1/{a}', 'GET'],
      ['v1/{b}', 'POST'],
    ]);
    expect(summary(router.match('/v1/9'))).toEqual([
      ['v1/{a}', ['GET'], { a: '9' }],
      ['v1/{b}', ['POST'], { b: '9' }],
    ]);
  });

  it('groups values registered on equivalent templates so that they share one match', () => {
    const router = routerOf([
      ['/items/{id:\\d+}', 'GET'],
      ['/items/{id: \\d+}', 'PUT'],
      ['/items', 'LIST'],
      ['items/', 'CREATE'],
    ]);
    expect(summary(router.match('/items/3'))).toEqual([['/items/{id:\\d+}', ['GET', 'PUT'], { id: '3' }]]);
    expect(summary(router.match('/items'))).toEqual([['/items', ['LIST', 'CREATE'], {}]]);
  });

  it('gives every matching group, so the caller can build an Allow header from all of them', () => {
    const router = routerOf([
      ['/a/b', 'POST'],
      ['/a/{x}', 'GET'],
      ['/a/{x}', 'DELETE'],
      ['/{p}/{q}', 'PATCH'],
    ]);
    const methods = router.match('/a/b').flatMap((match) => match.values);
    expect(methods).toEqual(['POST', 'GET', 'DELETE', 'PATCH']);
  });

  it('ranks a template above a literal route when it has as many literal characters and more variables', () => {
    const router = routerOf([
      ['/a/b', 'literal'],
      ['/a/b{rest: .*}', 'template'],
    ]);
    expect(summary(router.match('/a/b'))).toEqual([
      ['/a/b{rest: .*}', ['template'], { rest: '' }],
      ['/a/b', ['literal'], {}],
    ]);
  });

  it('finds literal and template routes with one trailing slash', () => {
    const router = routerOf([
      ['/a/b', 'literal'],
      ['/a/{x}', 'template'],
      ['/a/{rest: .+}', 'greedy'],
    ]);
    expect(summary(router.match('/a/b/'))).toEqual([
      ['/a/b', ['literal'], {}],
      ['/a/{rest: .+}', ['greedy'], { rest: 'b/' }],
      ['/a/{x}', ['template'], { x: 'b' }],
    ]);
    expect(summary(router.match('/a/c/'))).toEqual([
      ['/a/{rest: .+}', ['greedy'], { rest: 'c/' }],
      ['/a/{x}', ['template'], { x: 'c' }],
    ]);
    expect(router.match('/a/b//')).toEqual([expect.objectContaining({ values: ['greedy'] })]);
  });

  it('matches the root only with the root template', () => {
    const router = routerOf([
      ['/', 'root'],
      ['/{x}', 'one'],
    ]);
    expect(summary(router.match('/'))).toEqual([['/', ['root'], {}]]);
    expect(summary(router.match('/z'))).toEqual([['/{x}', ['one'], { x: 'z' }]]);
    expect(router.match('//')).toEqual([]);
  });

  it('mixes first-segment buckets with templates starting with a variable, in precedence order', () => {
    const router = routerOf([
      ['/{type}/{id}', 'any'],
      ['/users/{id}', 'users'],
      ['/orders/{id}', 'orders'],
      ['/{type}/{id}/history', 'history'],
    ]);
    expect(router.match('/users/1').map((match) => match.values[0])).toEqual(['users', 'any']);
    expect(router.match('/other/1').map((match) => match.values[0])).toEqual(['any']);
    expect(router.match('/users/1/history').map((match) => match.values[0])).toEqual(['history']);
  });

  it('keeps an encoded slash inside one variable', () => {
    const router = routerOf([
      ['/files/{name}', 'one'],
      ['/files/{dir}/{name}', 'two'],
    ]);
    expect(summary(router.match(requestPath('/files/a%2Fb')))).toEqual([['/files/{name}', ['one'], { name: 'a/b' }]]);
    expect(summary(router.match(requestPath('/files/a/b')))).toEqual([
      ['/files/{dir}/{name}', ['two'], { dir: 'a', name: 'b' }],
    ]);
  });

  it('matches decoded request paths against raw or encoded literal text', () => {
    const router = routerOf([
      ['/café/{x}', 'raw'],
      ['/hello world', 'space'],
      ['/a%2Fb', 'slash'],
    ]);
    expect(summary(router.match(requestPath('/caf%C3%A9/%C3%A9t%C3%A9')))).toEqual([
      ['/café/{x}', ['raw'], { x: 'été' }],
    ]);
    expect(router.match(requestPath('/hello%20world'))[0]?.values).toEqual(['space']);
    expect(router.match(requestPath('/a%2fb'))[0]?.values).toEqual(['slash']);
    expect(router.match(requestPath('/a/b'))).toEqual([]);
  });

  it('matches paths whose middle segment carried matrix parameters', () => {
    const router = routerOf([['/new-params/{klass}/{regex: my.*}/params/{p}', 'newParams']]);
    expect(summary(router.match(requestPath('/new-params/myklass;m=mv/myregex/params/pv')))).toEqual([
      ['/new-params/{klass}/{regex: my.*}/params/{p}', ['newParams'], { klass: 'myklass', regex: 'myregex', p: 'pv' }],
    ]);
  });

  it('computes params once and returns the same object', () => {
    const router = routerOf([['/p/{x}', 'v']]);
    const [match] = router.match('/p/1');
    expect(match?.params).toBe(match?.params);
    expect('toString' in (match?.params ?? {})).toBe(false);
  });

  it('reads one capture group by number as params would give it, decoded, without params', () => {
    const router = routerOf([
      ['/files/{dir}/{name}', 'two'],
      ['/files/list', 'literal'],
    ]);
    const [match] = router.match(requestPath('/files/a%2Fb/c%25d'));
    const groups = Object.fromEntries(
      match!.template.captures.map((capture) => [capture.name, match!.valueAt(capture.group)]),
    );
    expect(groups).toEqual({ dir: 'a/b', name: 'c%d' });
    expect(groups).toEqual({ ...match!.params });
    expect(router.match('/files/list').map((m) => [m.values[0], m.valueAt(1)])).toEqual([['literal', undefined]]);
  });

  it('returns frozen, shared answers for literal paths', () => {
    const router = routerOf([['/static', 'v']]);
    const first = router.match('/static');
    expect(router.match('/static')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0]?.values)).toBe(true);
  });

  it('refuses to change after freeze and to match before it', () => {
    const router = new Router<string>();
    router.add(compilePathTemplate('/a'), 'v');
    expect(() => router.match('/a')).toThrow('before freeze');
    router.freeze();
    router.freeze();
    expect(() => router.add(compilePathTemplate('/b'), 'w')).toThrow('after freeze');
    expect(router.match('/a')).toHaveLength(1);
  });

  it('agrees with running every template in precedence order', () => {
    const templates = [
      '/',
      '/a',
      '/a/b',
      '/a/{x}',
      '/a/{x}/c',
      '/{s}/b',
      '/{s}/{t}',
      '/a/b{rest: .*}',
      '/{any: .+}',
      '/b/{n: \\d+}',
      '/b/{w: \\w+}',
      '/a/{x}{y}',
      '/c;d',
      '/c/{x: [^/]*}',
      '/%2F/{x}',
      '/api/users/{id}',
      '/api/users/{id}/roles',
      '/api/{kind}/{id}',
      '/api/orders/{id: \\d+}',
      '/api/orders',
      '/e/{x: [a-z]*}',
      '/e/{x: [a-z]*}/{y: [a-z]*}',
      '/api/{p: [^.]+}',
      '/api/files/{path: .+}/meta',
    ];
    const router = routerOf(templates.map((template, index) => [template, String(index)]));
    const compiled = templates.map((template, index) => ({ template: compilePathTemplate(template), index }));
    const paths = [
      '/',
      '/a',
      '/a/',
      '/a/b',
      '/a/b/',
      '/a/bc',
      '/a/x/c',
      '/q/b',
      '/b/12',
      '/b/x',
      '/c/',
      '/c',
      '/%2F/z',
      '/x/y/z',
      '//',
      '/a//c',
      '/api/users/1',
      '/api/users/1/roles',
      '/api/orders/2',
      '/api/orders/x',
      '/api/orders',
      '/api/orders/',
      '/api',
      '/api/users',
      '/e/',
      '/e//',
      '/e/a/',
      '/e',
      '/api/a/b/c',
      '/api/files/x/y/meta',
      '/api/files/meta',
      '/api/files/x/meta/',
    ];
    // Plus a deterministic sweep of generated paths, trailing slashes and empty segments included.
    const words = ['', 'a', 'b', 'c', 'api', 'users', 'orders', 'files', 'meta', 'e', '1', '42', 'x.y', '%2F', 'roles'];
    let seed = 7;
    const next = (bound: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % bound;
    for (let n = 0; n < 3000; n++) {
      const segments = Array.from({ length: 1 + next(5) }, () => words[next(words.length)] as string);
      paths.push(`/${segments.join('/')}${next(4) === 0 ? '/' : ''}`);
    }
    for (const path of paths) {
      const expected = compiled
        .filter(({ template }) => template.regex.test(path))
        .sort(
          (p, q) =>
            q.template.literalCharacters - p.template.literalCharacters ||
            q.template.variableCount - p.template.variableCount ||
            q.template.regexVariableCount - p.template.regexVariableCount ||
            p.index - q.index,
        )
        .map(({ index }) => String(index));
      expect([path, router.match(path).flatMap((match) => match.values)]).toEqual([path, expected]);
    }
  });
});
