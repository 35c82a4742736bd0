import {
  formatMediaType,
  isCompatible,
  isConcrete,
  isJsonText,
  mediaType,
  parseMediaType,
  specificity,
  withoutParams,
  type MediaType,
} from '../../lib/http/media-type';

const parse = (text: string): MediaType => {
  const m = parseMediaType(text);
  if (m === undefined) throw new Error(`test fixture does not parse: ${text}`);
  return m;
};

describe('parseMediaType', () => {
  it('reads type, subtype and parameters, lower-casing names but not values', () => {
    expect(parseMediaType('Text/HTML; Charset=UTF-8')).toEqual({
      type: 'text',
      subtype: 'html',
      params: { charset: 'UTF-8' },
    });
  });

  it('reads the RFC 9110 §8.3.1 equivalent forms alike', () => {
    const forms = [
      'text/html;charset=utf-8',
      'text/html;charset=UTF-8',
      'Text/HTML;Charset="utf-8"',
      'text/html; charset="utf-8"',
    ];
    for (const form of forms) {
      const m = parse(form);
      expect([m.type, m.subtype, m.params.charset.toLowerCase()]).toEqual(['text', 'html', 'utf-8']);
    }
  });

  it('unescapes quoted-string values that contain separators', () => {
    expect(parse('multipart/form-data; boundary="a;b,c \\"d\\""').params.boundary).toBe('a;b,c "d"');
  });

  it('reads wildcards and structured suffixes', () => {
    expect(parse('*/*')).toMatchObject({ type: '*', subtype: '*' });
    expect(parse('text/*')).toMatchObject({ type: 'text', subtype: '*' });
    expect(parse('application/hal+json')).toMatchObject({ subtype: 'hal+json' });
  });

  it('keeps the first of duplicate parameters', () => {
    expect(parse('text/plain;a=1;A=2').params).toEqual({ a: '1' });
  });

  it('treats parameters named like Object members as plain data', () => {
    const m = parse('text/plain;__proto__=x;constructor=y');
    expect(m.params.__proto__).toBe('x');
    expect(m.params.constructor).toBe('y');
    expect(Object.keys(m.params)).toEqual(['__proto__', 'constructor']);
  });

  it('returns undefined for malformed media types', () => {
    const malformed = [
      'invalid',
      '/',
      'text/',
      '/plain',
      '*/json',
      'text/plain/x',
      'text/plain; charset',
      'text/plain;a = b',
      'text plain',
      '',
      'tëxt/plain',
    ];
    for (const text of malformed) expect(parseMediaType(text)).toBeUndefined();
  });

  it('returns the same frozen object for the same string', () => {
    const m = parse('application/json');
    expect(parse('application/json')).toBe(m);
    expect(Object.isFrozen(m)).toBe(true);
    expect(Object.isFrozen(m.params)).toBe(true);
  });
});

describe('mediaType', () => {
  it('builds a frozen media type with lower-cased names', () => {
    const m = mediaType('Application', 'JSON', { Charset: 'UTF-8' });
    expect(m).toEqual({ type: 'application', subtype: 'json', params: { charset: 'UTF-8' } });
    expect(Object.isFrozen(m)).toBe(true);
  });
});

describe('formatMediaType', () => {
  it('writes no space after ";" as the Java framework does', () => {
    expect(formatMediaType(mediaType('text', 'plain', { charset: 'UTF-8' }))).toBe('text/plain;charset=UTF-8');
  });

  it('quotes values that are not tokens', () => {
    expect(formatMediaType(mediaType('multipart', 'form-data', { boundary: 'a b"c' }))).toBe(
      'multipart/form-data;boundary="a b\\"c"',
    );
  });

  it('round-trips through parseMediaType', () => {
    const text = 'application/vnd.api+json;profile="http://x/p";v=2';
    expect(formatMediaType(parse(text))).toBe(text);
  });
});

describe('isCompatible', () => {
  it('matches wildcards on either side and ignores parameters', () => {
    expect(isCompatible(parse('*/*'), parse('image/png'))).toBe(true);
    expect(isCompatible(parse('text/html'), parse('text/*'))).toBe(true);
    expect(isCompatible(parse('text/plain;charset=UTF-8'), parse('text/plain;charset=ISO-8859-1'))).toBe(true);
  });

  it('rejects different types or subtypes', () => {
    expect(isCompatible(parse('text/*'), parse('application/json'))).toBe(false);
    expect(isCompatible(parse('text/plain'), parse('text/html'))).toBe(false);
  });
});

describe('isConcrete', () => {
  it('is false for any wildcard', () => {
    expect(isConcrete(parse('text/plain'))).toBe(true);
    expect(isConcrete(parse('text/*'))).toBe(false);
    expect(isConcrete(parse('*/*'))).toBe(false);
  });
});

describe('specificity', () => {
  it('ranks */* below type/* below type/subtype', () => {
    expect([parse('*/*'), parse('application/*'), parse('application/json')].map(specificity)).toEqual([0, 1, 2]);
  });
});

describe('isJsonText', () => {
  it('recognises application/json and +json suffixes', () => {
    for (const text of [
      'application/json',
      'application/json;charset=UTF-8',
      'application/hal+json',
      'application/merge-patch+json',
      'application/problem+json',
    ]) {
      expect(isJsonText(text)).toBe(true);
    }
  });

  it('rejects other types', () => {
    for (const text of ['text/plain', 'application/jsonl', 'application/x-ndjson', 'text/json+x', '*/*']) {
      expect(isJsonText(text)).toBe(false);
    }
  });
});

describe('withoutParams', () => {
  it('removes the named parameters and keeps the others', () => {
    expect(withoutParams(parse('text/plain;qs=0.5;charset=UTF-8;q=1'), ['q', 'qs'])).toEqual(
      mediaType('text', 'plain', { charset: 'UTF-8' }),
    );
  });

  it('returns the same object when there is nothing to remove', () => {
    const m = parse('text/plain;charset=UTF-8');
    expect(withoutParams(m, ['qs'])).toBe(m);
  });
});
