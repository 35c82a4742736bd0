import { formatLink, parseLinkHeader, type WebLink } from '../../lib/http/link-header';

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

describe('parseLinkHeader', () => {
  it('reads what formatLink writes', () => {
    const links: WebLink[] = [
      { href: 'http://x/records/1', rel: 'self', title: 'One, "first"', type: 'application/json' },
      { href: 'http://x/records?a=1,2', rel: 'list' },
    ];
    expect(parseLinkHeader(links.map(formatLink).join(', '))).toEqual(links);
  });

  it('reads token values, any spacing and case-insensitive parameter names', () => {
    expect(parseLinkHeader('<http://x/next>;REL=next ;  Type = text/html')).toEqual([
      { href: 'http://x/next', rel: 'next', type: 'text/html' },
    ]);
  });

  it('keeps the first rel and prefers title* over title (RFC 8288 §3.3, §3.4.1)', () => {
    expect(parseLinkHeader('<http://x/>; rel=a; rel=b; title="plain"; title*=UTF-8\'fr\'Pralin%C3%A9')).toEqual([
      { href: 'http://x/', rel: 'a', title: 'Praliné' },
    ]);
  });

  it('falls back to title when title* is not valid', () => {
    expect(parseLinkHeader("<http://x/>; rel=a; title*=latin1''x; title=T")).toEqual([
      { href: 'http://x/', rel: 'a', title: 'T' },
    ]);
  });

  it('skips links without rel and malformed members', () => {
    expect(
      parseLinkHeader('<http://x/a>; title="no rel", garbage, <http://x/b>; rel="ok"; ;=x, <http://x/c>; rel=c'),
    ).toEqual([{ href: 'http://x/c', rel: 'c' }]);
  });

  it('returns an empty list for a missing or empty header', () => {
    expect(parseLinkHeader(undefined)).toEqual([]);
    expect(parseLinkHeader(null)).toEqual([]);
    expect(parseLinkHeader('')).toEqual([]);
  });
});
