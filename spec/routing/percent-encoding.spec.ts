import {
  decodeComponent,
  decodeRoutedValue,
  encodePathSegment,
  encodesControl,
  normalizeEscapes,
} from '../../lib/routing/percent-encoding';

describe('normalizeEscapes', () => {
  it('returns text without escapes as the same string', () => {
    const text = '/plain/path';
    expect(normalizeEscapes(text)).toBe(text);
  });

  it('decodes every escape except %2F and %25, which it upper-cases', () => {
    expect(normalizeEscapes('%41%3a%2f%2F%25%3B')).toBe('A:%2F%2F%25;');
  });

  it('decodes multi-byte UTF-8 split around a kept escape', () => {
    expect(normalizeEscapes('%C3%A9%2F%C3%A9')).toBe('é%2Fé');
  });

  it('rejects a UTF-8 sequence cut by a kept escape', () => {
    expect(normalizeEscapes('%C3%2F%A9')).toBeUndefined();
  });

  it('rejects malformed and truncated escapes', () => {
    expect(normalizeEscapes('%g0')).toBeUndefined();
    expect(normalizeEscapes('abc%')).toBeUndefined();
    expect(normalizeEscapes('%2')).toBeUndefined();
  });
});

describe('decodeRoutedValue', () => {
  it('turns the kept escapes back into a slash and a percent sign', () => {
    expect(decodeRoutedValue('a%2Fb%25%2F')).toBe('a/b%/');
    expect(decodeRoutedValue('%252F')).toBe('%2F');
  });

  it('leaves values without escapes untouched', () => {
    expect(decodeRoutedValue('café')).toBe('café');
  });
});

describe('decodeComponent', () => {
  it('decodes every escape, including separators', () => {
    expect(decodeComponent('a%2Fb%3Bc%3D%25')).toBe('a/b;c=%');
    expect(decodeComponent('a+b')).toBe('a+b');
  });

  it('returns undefined for malformed input', () => {
    expect(decodeComponent('%E0%A4')).toBeUndefined();
  });
});

describe('encodePathSegment', () => {
  it('round-trips through the request-path decoding', () => {
    const value = 'a/b c;d%e?f#g é😀';
    const encoded = encodePathSegment(value);
    expect(encoded).not.toMatch(/[/;?# ]/);
    expect(decodeRoutedValue(normalizeEscapes(encoded) as string)).toBe(value);
  });
});

describe('encodesControl', () => {
  it('finds an escape of a C0 control or DEL, in either case, and nothing else', () => {
    for (const text of ['/a%00b', '/%0a', '/a%0D', '/x;m=%1F', '/%7f', '/%7F'])
      expect([text, encodesControl(text)]).toEqual([text, true]);
    for (const text of ['/plain', '/a%2500b', '/a%20b', '/%C2%85', '/%2F%7E', '/a%0'])
      expect([text, encodesControl(text)]).toEqual([text, false]);
  });
});
