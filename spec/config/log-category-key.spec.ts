import { isLogCategoryFamily, logCategoryKey, logCategoryOf } from '../../lib/config/log-category-key';

describe('logCategoryOf', () => {
  it('reads quoted and unquoted category names', () => {
    expect(logCategoryOf('framework.log.category."rxrest.params".level')).toBe('rxrest.params');
    expect(logCategoryOf('framework.log.category.rxrest.level')).toBe('rxrest');
    expect(logCategoryOf('framework.log.category.a.b.level')).toBe('a.b');
  });

  it('returns undefined for other keys and malformed names', () => {
    expect(logCategoryOf('framework.log.level')).toBeUndefined();
    expect(logCategoryOf('framework.log.category."x".min-level')).toBeUndefined();
    expect(logCategoryOf('framework.log.category."".level')).toBeUndefined();
    expect(logCategoryOf('framework.log.category."a"b".level')).toBeUndefined();
  });
});

describe('logCategoryKey', () => {
  it('round-trips through logCategoryOf', () => {
    expect(logCategoryKey('rxrest.params')).toBe('framework.log.category."rxrest.params".level');
    expect(logCategoryOf(logCategoryKey('rxrest.params'))).toBe('rxrest.params');
  });
});

describe('isLogCategoryFamily', () => {
  it('recognises keys under the per-category prefix, even malformed ones', () => {
    expect(isLogCategoryFamily('framework.log.category."x".lvl')).toBe(true);
    expect(isLogCategoryFamily('framework.log.level')).toBe(false);
  });
});
