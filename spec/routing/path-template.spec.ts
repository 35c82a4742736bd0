import { compilePathTemplate, joinPaths, matchTemplate, readParams } from '../../lib/routing/path-template';
import { TemplateError } from '../../lib/routing/template-parser';

function params(template: string, path: string): Record<string, string> | undefined {
  const result = matchTemplate(compilePathTemplate(template), path);
  return result === undefined ? undefined : { ...result };
}

function templateError(template: string): TemplateError {
  try {
    compilePathTemplate(template);
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
  throw new Error(`expected "${template}" to be rejected`);
}

describe('joinPaths', () => {
  it('joins application, class and method paths with single slashes', () => {
    expect(joinPaths('/api', 'rest/V1', '{id}')).toBe('/api/rest/V1/{id}');
    expect(joinPaths('api/', '/rest/V1/', '/{id}/')).toBe('/api/rest/V1/{id}');
  });

  it('ignores empty parts and parts made only of slashes', () => {
    expect(joinPaths('', 'hello', '')).toBe('/hello');
    expect(joinPaths('/', '//hello//', '/')).toBe('/hello');
  });

  it('gives the root for nothing at all', () => {
    expect(joinPaths()).toBe('/');
    expect(joinPaths('', '/', '')).toBe('/');
  });

  it('keeps a slash inside a regex and inner empty segments', () => {
    expect(joinPaths('files', '{p: .+/x}')).toBe('/files/{p: .+/x}');
    expect(joinPaths('a//b')).toBe('/a//b');
  });
});

describe('compilePathTemplate', () => {
  it('matches the spec example: /hello/{name}/{age:\\d+}', () => {
    const method = compilePathTemplate(joinPaths('hello', '{name}/{age:\\d+}'));
    const resource = compilePathTemplate(joinPaths('hello'));
    expect(matchTemplate(method, '/hello/stef/23')).toEqual({ name: 'stef', age: '23' });
    expect(matchTemplate(method, '/hello/stef/0x23')).toBeUndefined();
    expect(matchTemplate(method, '/hello')).toBeUndefined();
    expect(resource.regex.test('/hello')).toBe(true);
    expect(resource.regex.test('/hello/stef/23')).toBe(false);
  });

  it('accepts spaces around the name and the regex', () => {
    expect(params('/records/{ id : \\d+ }', '/records/42')).toEqual({ id: '42' });
    expect(params('/records/{id: \\d+}', '/records/first')).toBeUndefined();
    expect(compilePathTemplate('/records/{id: \\d+}').normalized).toBe('/records/{:\\d+}');
  });

  it('parses quantifier braces inside a regex', () => {
    const template = compilePathTemplate('/years/{year: \\d{2,4}}/{rest}');
    expect(matchTemplate(template, '/years/2024/x')).toEqual({ year: '2024', rest: 'x' });
    expect(matchTemplate(template, '/years/12345/x')).toBeUndefined();
    expect(template.normalized).toBe('/years/{:\\d{2,4}}/{}');
  });

  it('accepts an escaped brace inside a regex', () => {
    expect(params('/b/{v: a\\{}', '/b/a{')).toEqual({ v: 'a{' });
  });

  it('keeps variables in place when a user regex has capturing groups of its own', () => {
    const template = compilePathTemplate('/{a: (x)(y)?}/{b: ((\\d+))}/{c}');
    expect(matchTemplate(template, '/x/12/end')).toEqual({ a: 'x', b: '12', c: 'end' });
    expect(matchTemplate(template, '/xy/7/z')).toEqual({ a: 'xy', b: '7', c: 'z' });
    expect(template.captures).toEqual([
      { name: 'a', group: 1 },
      { name: 'b', group: 4 },
      { name: 'c', group: 7 },
    ]);
  });

  it('accepts a named group in a user regex', () => {
    expect(params('/{a: (?<inner>\\w+)}/{b}', '/foo/bar')).toEqual({ a: 'foo', b: 'bar' });
  });

  it('matches a default variable within one segment only', () => {
    expect(params('/a/{x}', '/a/b/c')).toBeUndefined();
    expect(params('/a/{x}', '/a/')).toBeUndefined();
    expect(params('/a/{path: .+}', '/a/b/c')).toEqual({ path: 'b/c' });
  });

  it('gives a default variable the shortest match, as the Java REST specification does', () => {
    expect(params('/{a}-{b}', '/x-y-z')).toEqual({ a: 'x', b: 'y-z' });
  });

  it('escapes regex characters in literal text', () => {
    expect(params('/v1.0/a+b/(c)/$d', '/v1.0/a+b/(c)/$d')).toEqual({});
    expect(params('/v1.0', '/v1x0')).toBeUndefined();
    expect(params('/a+b', '/aab')).toBeUndefined();
  });

  it('tolerates one trailing slash and no more', () => {
    expect(params('/a/{x}', '/a/b/')).toEqual({ x: 'b' });
    expect(params('/a', '/a/')).toEqual({});
    expect(params('/a', '/a//')).toBeUndefined();
    expect(params('/a', '/ab')).toBeUndefined();
  });

  it('matches only the root for the root template', () => {
    for (const source of ['/', '', '//']) {
      const root = compilePathTemplate(source);
      expect(root.regex.test('/')).toBe(true);
      expect(root.regex.test('/a')).toBe(false);
      expect(root.normalized).toBe('/');
      expect(root.isLiteral).toBe(true);
    }
  });

  it('adds the leading slash and drops a trailing one', () => {
    const template = compilePathTemplate('hello/{name}/');
    expect(template.template).toBe('hello/{name}/');
    expect(template.normalized).toBe('/hello/{}');
    expect(matchTemplate(template, '/hello/x')).toEqual({ name: 'x' });
  });

  it('counts literal characters, variables and regex variables for precedence', () => {
    const template = compilePathTemplate('/customers/{id: \\d+}/orders/{order}');
    expect(template.literalCharacters).toBe('/customers//orders/'.length);
    expect(template.variableCount).toBe(2);
    expect(template.regexVariableCount).toBe(1);
    expect(template.variables).toEqual(['id', 'order']);
    expect(template.isLiteral).toBe(false);
  });

  it('counts slashes of literal text and tells whether a variable may span segments', () => {
    const plain = compilePathTemplate('/a/{x}/b/{y: \\d+}/');
    expect([plain.slashCount, plain.spansSegments]).toEqual([4, false]);
    const spanning = compilePathTemplate('/a/{rest: .+}');
    expect([spanning.slashCount, spanning.spansSegments]).toEqual([2, true]);
    expect(compilePathTemplate('/a%2Fb').slashCount).toBe(1);
  });

  it('normalises templates differing only in variable names to the same string', () => {
    expect(compilePathTemplate('v1/{a}').normalized).toBe(compilePathTemplate('/v1/{b}').normalized);
    expect(compilePathTemplate('v1/{a:\\d+}').normalized).toBe(compilePathTemplate('v1/{b: \\d+ }').normalized);
    expect(compilePathTemplate('v1/{a}').normalized).not.toBe(compilePathTemplate('v1/{a:\\d+}').normalized);
    expect(compilePathTemplate('v1/{a}').normalized).not.toBe(compilePathTemplate('v2/{a}').normalized);
  });

  it('treats percent-encoded and raw literal text alike', () => {
    const encoded = compilePathTemplate('/caf%c3%a9/{x}');
    expect(encoded.normalized).toBe(compilePathTemplate('/café/{x}').normalized);
    expect(matchTemplate(encoded, '/café/1')).toEqual({ x: '1' });
    expect(encoded.literalCharacters).toBe('/café/'.length);
  });

  it('keeps an encoded slash or percent in literal text distinct from a separator', () => {
    const template = compilePathTemplate('/a%2fb/100%');
    expect(template.normalized).toBe('/a%2Fb/100%25');
    expect(template.regex.test('/a%2Fb/100%25')).toBe(true);
    expect(template.regex.test('/a/b/100%25')).toBe(false);
  });

  it('allows a variable twice with the same regex, the last value winning', () => {
    const template = compilePathTemplate('/{x}/and/{x}');
    expect(template.variables).toEqual(['x']);
    expect(template.variableCount).toBe(2);
    expect(matchTemplate(template, '/1/and/2')).toEqual({ x: '2' });
  });

  it('rejects a variable reused with another regex', () => {
    expect(templateError('/{x}/{x: \\d+}').message).toContain('{x} is used twice');
  });

  it('rejects malformed templates with a message naming the template and the problem', () => {
    const cases: [string, string][] = [
      ['/a/{id', "unclosed '{'"],
      ['/a/{id: \\d{2}', "unclosed '{'"],
      ['/a/}', "unexpected '}'"],
      ['/a/{}', 'empty variable name'],
      ['/a/{ : \\d+}', 'empty variable name'],
      ['/a/{na me}', 'invalid variable name "na me"'],
      ['/a/{id:}', 'empty regular expression for {id}'],
      ['/a/{id: [a-}', 'invalid regular expression for {id}'],
      ['/a/{id: (}', 'invalid regular expression for {id}'],
      ['/a/%E0%A4', 'not UTF-8'],
      ['/{a: (?<g>x)}/{b: (?<g>y)}', 'do not combine'],
    ];
    for (const [template, problem] of cases) {
      const error = templateError(template);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe('TemplateError');
      expect(error.template).toBe(template);
      expect(error.message).toContain(`"${template}"`);
      expect(error.message).toContain(problem);
    }
  });

  it('accepts dots, dashes and underscores in variable names', () => {
    expect(params('/{a.b-c_d}', '/v')).toEqual({ 'a.b-c_d': 'v' });
  });
});

describe('readParams', () => {
  it('decodes an encoded slash and percent sign in captured values', () => {
    const template = compilePathTemplate('/files/{name}');
    const match = template.regex.exec('/files/a%2Fb%25c') as RegExpExecArray;
    expect(readParams(template, match)).toEqual({ name: 'a/b%c' });
  });

  it('returns an object that inherits nothing, so that any name is a plain key', () => {
    const template = compilePathTemplate('/{__proto__}/{constructor}');
    const values = readParams(template, template.regex.exec('/x/y') as RegExpExecArray);
    expect(Object.keys(values)).toEqual(['__proto__', 'constructor']);
    expect(values['__proto__']).toBe('x');
    expect(values['constructor']).toBe('y');
    const other = compilePathTemplate('/{id}');
    const plain = readParams(other, other.regex.exec('/1') as RegExpExecArray);
    for (const inherited of ['constructor', 'toString', 'hasOwnProperty', '__proto__'])
      expect(inherited in plain).toBe(false);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(plain))).toBeNull();
  });
});
