import { findQueryValues, parseQuery } from '../../lib/http/query';

/** What the WHATWG parser gives for one name: the reference both readers must agree with. */
function reference(query: string, name: string): string[] | undefined {
  const values = new URLSearchParams(query).getAll(name);
  return values.length ? values : undefined;
}

const QUERIES = [
  'limit=10',
  'a=1&a=2&b=x+y',
  'a%20b=c&a+b=d&a b=e',
  'flag&flag=&=empty-name&&x=1',
  'x=%E2%82%AC&x=%zz&x=%E2%82',
  'caf%C3%A9=cr%C3%A8me&caf%c3%a9=2',
  'q=a=b=c&q',
  'tag=1&tags=2&ta=3',
  '',
  '&&&',
];

describe('query strings', () => {
  it.each(QUERIES)('parseQuery and findQueryValues read %j as URLSearchParams does, for every name in it', (query) => {
    const names = new Set([...new URLSearchParams(query).keys(), 'absent', 'tag', 'a']);
    const map = parseQuery(query);
    for (const name of names) {
      expect([name, map.get(name)]).toEqual([name, reference(query, name)]);
      expect([name, findQueryValues(query, name)]).toEqual([name, reference(query, name)]);
    }
  });
});
