import { EntityTag, parseEntityTagList } from '../../lib/http/entity-tag';

describe('EntityTag', () => {
  it('always writes quoted tags, weak ones prefixed by W/', () => {
    expect(new EntityTag('yourit').toString()).toBe('"yourit"');
    expect(new EntityTag('v1', true).toString()).toBe('W/"v1"');
    expect(new EntityTag('').toString()).toBe('""');
  });

  it('rejects values an entity tag cannot carry', () => {
    for (const value of ['a"b', 'a b', 'line\nbreak', 'é€']) expect(() => new EntityTag(value)).toThrow(TypeError);
  });

  it('compares strongly only when both tags are strong (RFC 9110 §8.8.3.2 table)', () => {
    const [w1, w1b, w2, s1] = [
      new EntityTag('1', true),
      new EntityTag('1', true),
      new EntityTag('2', true),
      new EntityTag('1'),
    ];
    expect(w1.strongEquals(w1b)).toBe(false);
    expect(w1.weakEquals(w1b)).toBe(true);
    expect(w1.strongEquals(w2)).toBe(false);
    expect(w1.weakEquals(w2)).toBe(false);
    expect(w1.strongEquals(s1)).toBe(false);
    expect(w1.weakEquals(s1)).toBe(true);
    expect(s1.strongEquals(new EntityTag('1'))).toBe(true);
    expect(s1.weakEquals(new EntityTag('1'))).toBe(true);
  });
});

describe('EntityTag.parse', () => {
  it('reads quoted, weak and lenient unquoted tags', () => {
    expect(EntityTag.parse('"v1"')).toEqual(new EntityTag('v1'));
    expect(EntityTag.parse(' W/"v1" ')).toEqual(new EntityTag('v1', true));
    expect(EntityTag.parse('v1')).toEqual(new EntityTag('v1'));
    expect(EntityTag.parse('W/v1')).toEqual(new EntityTag('v1', true));
    expect(EntityTag.parse('""')).toEqual(new EntityTag(''));
  });

  it('throws a TypeError for empty or malformed tags', () => {
    for (const text of ['', '  ', 'W/', '"unterminated', 'a"b', 'two words'])
      expect(() => EntityTag.parse(text)).toThrow(TypeError);
  });
});

describe('parseEntityTagList', () => {
  it('returns "*" for the wildcard', () => {
    expect(parseEntityTagList('*')).toBe('*');
    expect(parseEntityTagList(' * ')).toBe('*');
  });

  it('reads comma-separated lists, keeping commas inside quotes', () => {
    expect(parseEntityTagList('"xyzzy", W/"r2d2xxxx", "c3piozzzz", "a,b"')).toEqual([
      new EntityTag('xyzzy'),
      new EntityTag('r2d2xxxx', true),
      new EntityTag('c3piozzzz'),
      new EntityTag('a,b'),
    ]);
  });

  it('skips malformed members and reads unquoted ones', () => {
    expect(parseEntityTagList('v1, "a b", , W/"v2"')).toEqual([new EntityTag('v1'), new EntityTag('v2', true)]);
  });

  it('returns an empty list for a missing header', () => {
    expect(parseEntityTagList(undefined)).toEqual([]);
    expect(parseEntityTagList(null)).toEqual([]);
  });
});
