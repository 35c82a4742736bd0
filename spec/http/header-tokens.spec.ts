import {
  isToken,
  parseParameters,
  parseQuality,
  quote,
  quoteIfNeeded,
  splitHeaderList,
} from '../../lib/http/header-tokens';

describe('isToken', () => {
  it('accepts tchars and rejects separators, spaces and the empty string', () => {
    expect(isToken("a-Z_0.9!#$%&'*+^`|~")).toBe(true);
    for (const text of ['', 'a b', 'a;b', 'a=b', '"a"', 'a/b', 'é', 'a,b']) expect(isToken(text)).toBe(false);
  });
});

describe('quote', () => {
  it('wraps in double quotes and escapes quotes and backslashes', () => {
    expect(quote('say "hi" \\o/')).toBe('"say \\"hi\\" \\\\o/"');
  });
});

describe('quoteIfNeeded', () => {
  it('leaves tokens bare and quotes the rest', () => {
    expect(quoteIfNeeded('UTF-8')).toBe('UTF-8');
    expect(quoteIfNeeded('a b')).toBe('"a b"');
    expect(quoteIfNeeded('')).toBe('""');
  });
});

describe('splitHeaderList', () => {
  it('splits on commas outside quoted strings and drops empty members', () => {
    expect(splitHeaderList(' a , "b,c" ,, d,')).toEqual(['a', '"b,c"', 'd']);
  });

  it('does not end a quoted string at an escaped quote', () => {
    expect(splitHeaderList('"x\\",y", z')).toEqual(['"x\\",y"', 'z']);
  });

  it('returns no members for an empty or blank value', () => {
    expect(splitHeaderList('')).toEqual([]);
    expect(splitHeaderList(' , ')).toEqual([]);
  });
});

describe('parseParameters', () => {
  it('reads tokens and quoted strings with lower-cased names', () => {
    expect(parseParameters(' ; Charset="utf-8" ;q=0.5')).toEqual([
      ['charset', 'utf-8'],
      ['q', '0.5'],
    ]);
  });

  it('unescapes quoted-pairs', () => {
    expect(parseParameters(';title="a \\"b\\" \\\\"')).toEqual([['title', 'a "b" \\']]);
  });

  it('accepts empty parameters and trailing whitespace', () => {
    expect(parseParameters(';;a=1; ')).toEqual([['a', '1']]);
    expect(parseParameters('')).toEqual([]);
  });

  it('rejects a name without value, spaces around "=" and garbage', () => {
    for (const text of [';charset', '; a = 1', 'x;a=1', ';a="unterminated', ';a=b c']) {
      expect(parseParameters(text)).toBeUndefined();
    }
  });
});

describe('parseQuality', () => {
  it('reads weights between 0 and 1, including the lenient ".5" form', () => {
    expect(parseQuality('0')).toBe(0);
    expect(parseQuality('1.000')).toBe(1);
    expect(parseQuality('0.125')).toBe(0.125);
    expect(parseQuality('.2')).toBe(0.2);
  });

  it('rejects values outside [0, 1] and non-numbers', () => {
    for (const text of ['1.001', '2', '-0.5', 'abc', '', '0x1', '1e-1']) expect(parseQuality(text)).toBeUndefined();
  });
});
