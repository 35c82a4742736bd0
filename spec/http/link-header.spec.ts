import { formatLink } from '../../lib/http/link-header';

describe('formatLink', () => {
  it('writes the A8 form <uri>; rel="..."', () => {
    expect(formatLink({ href: 'http://example.com/link', rel: 'stef' })).toBe('<http://example.com/link>; rel="stef"');
  });

  it('adds title and type, all values quoted', () => {
    expect(formatLink({ href: 'http://x/records/1', rel: 'self', title: 'T', type: 'application/json' })).toBe(
      '<http://x/records/1>; rel="self"; title="T"; type="application/json"',
    );
  });

  it('escapes quotes and backslashes in values', () => {
    expect(formatLink({ href: 'http://x/', rel: 'a', title: 'say "hi" \\' })).toBe(
      '<http://x/>; rel="a"; title="say \\"hi\\" \\\\"',
    );
  });

  it('percent-encodes characters that cannot stand in <...>, keeping template braces', () => {
    expect(formatLink({ href: 'http://x/a b/<é>/{slugOrId}', rel: 'r' })).toBe(
      '<http://x/a%20b/%3C%C3%A9%3E/{slugOrId}>; rel="r"',
    );
  });
});
