import { parseProperties } from '../../lib/config/properties';

function parse(text: string): Record<string, string> {
  return Object.fromEntries(parseProperties(text));
}

describe('parseProperties', () => {
  it('reads the three separator forms', () => {
    expect(parse('a=1\nb: 2\nc 3\nd\t4')).toEqual({ a: '1', b: '2', c: '3', d: '4' });
  });

  it('trims whitespace around the separator but keeps trailing whitespace of the value', () => {
    expect(parse('  key   =   value  ')).toEqual({ key: 'value  ' });
  });

  it('takes only the first separator; later ones belong to the value', () => {
    expect(parse('url=http://x:1/a=b\nk : v : w')).toEqual({ url: 'http://x:1/a=b', k: 'v : w' });
  });

  it('accepts a key with no value, and an empty value', () => {
    expect(parse('alone\nempty=\n')).toEqual({ alone: '', empty: '' });
  });

  it('skips # and ! comment lines and blank lines, but not # inside a value', () => {
    expect(parse('# c1\n   ! c2\n\n   \nk=v # not a comment')).toEqual({ k: 'v # not a comment' });
  });

  it("joins continuation lines, dropping the next line's leading whitespace", () => {
    expect(parse('list=a,\\\n      b,\\\n\tc\nnext=1')).toEqual({ list: 'a,b,c', next: '1' });
  });

  it('does not continue after an even number of backslashes', () => {
    expect(parse('path=C:\\\\\nnext=1')).toEqual({ path: 'C:\\', next: '1' });
  });

  it('does not treat a # line reached by continuation as a comment', () => {
    expect(parse('k=a\\\n#b')).toEqual({ k: 'a#b' });
  });

  it('does not continue a comment line ending in a backslash', () => {
    expect(parse('# comment \\\nk=v')).toEqual({ k: 'v' });
  });

  it('drops a dangling continuation at the end of the text', () => {
    expect(parse('k=v\\')).toEqual({ k: 'v' });
  });

  it('decodes \\t \\n \\r \\f and \\uXXXX escapes', () => {
    expect(parse('k=a\\tb\\nc\\rd\\fe \\u00e9\\u20AC')).toEqual({ k: 'a\tb\nc\rd\fe é€' });
  });

  it('keeps other escaped characters literally, including separators in keys', () => {
    expect(parse('a\\=b\\:c\\ d=x\\y\\\\z')).toEqual({ 'a=b:c d': 'xy\\z' });
  });

  it('keeps quoted key segments whole, separators and dots included', () => {
    expect(parse('framework.log.category."rxrest.params".level=DEBUG\nx."a b=c".y=1')).toEqual({
      'framework.log.category."rxrest.params".level': 'DEBUG',
      'x."a b=c".y': '1',
    });
  });

  it('lets the last of duplicate keys win', () => {
    expect(parseProperties('k=1\nk=2\nk=3').get('k')).toBe('3');
  });

  it('accepts CRLF and CR line endings and a byte order mark', () => {
    expect(parse('\uFEFFa=1\r\nb=2\rc=3')).toEqual({ a: '1', b: '2', c: '3' });
  });

  it('returns an empty map for empty text', () => {
    expect(parseProperties('').size).toBe(0);
  });

  it('rejects a malformed \\u escape, naming the line', () => {
    expect(() => parseProperties('ok=1\n\nbad=\\u12G4')).toThrow(/line 3/);
    expect(() => parseProperties('bad=\\u12')).toThrow(SyntaxError);
  });
});
