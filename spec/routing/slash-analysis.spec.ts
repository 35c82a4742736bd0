import { mayMatchSlash } from '../../lib/routing/slash-analysis';

describe('mayMatchSlash', () => {
  it('proves common segment regexes slash-free', () => {
    for (const regex of [
      '\\d+',
      '[0-9]+',
      '[a-zA-Z-]+',
      '\\w{2,4}',
      '[a-z0-9_]+(?:-[a-z]+)*',
      '(x)(y)?',
      '[!--]',
      '[]a]',
      'a\\.b',
      '[^/]+',
      '[^./]+',
      '[^\\/]*',
      '[^.-/]',
    ]) {
      expect([regex, mayMatchSlash(regex)]).toEqual([regex, false]);
    }
  });

  it('suspects every regex that may match a slash', () => {
    for (const regex of [
      '.+',
      '.*',
      'a/b',
      '\\/',
      '[^a]+',
      '[^!-9]',
      '[^\\x2F]',
      '[a/]',
      '[!-9]',
      '[ -~]+',
      '\\D+',
      '\\W',
      '\\S+',
      '\\x2F',
      '\\u002F',
      '(a)\\1',
      '[\\x20-\\x7e]',
      '[a-\\z]',
      '[abc',
    ]) {
      expect([regex, mayMatchSlash(regex)]).toEqual([regex, true]);
    }
  });
});
