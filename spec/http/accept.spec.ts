import { parseAccept } from '../../lib/http/accept';

const summary = (header: string | null | undefined): string[] =>
  parseAccept(header).map(
    (r) =>
      `${r.type}/${r.subtype}${Object.entries(r.params)
        .map(([k, v]) => `;${k}=${v}`)
        .join('')} q=${r.q}`,
  );

describe('parseAccept', () => {
  it('reads ranges in order with their weights (RFC 9110 §12.5.1 example)', () => {
    expect(
      summary('text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5'),
    ).toEqual([
      'text/* q=0.3',
      'text/plain q=0.7',
      'text/plain;format=flowed q=1',
      'text/plain;format=fixed q=0.4',
      '*/* q=0.5',
    ]);
  });

  it('keeps q=0 ranges, which mean "not acceptable"', () => {
    expect(summary('application/json, text/plain;q=0')).toEqual(['application/json q=1', 'text/plain q=0']);
  });

  it('treats a missing, empty or wholly malformed header as */*', () => {
    for (const header of [undefined, null, '', ' , ', '/', 'blah', 'invalid', 'text/', 'text/plain;q=2']) {
      expect(summary(header)).toEqual(['*/* q=1']);
    }
  });

  it('skips malformed members and keeps the valid ones', () => {
    expect(summary('blah, text/html;q=x, application/json;q=0.9, */json, /')).toEqual(['application/json q=0.9']);
  });

  it('reads Java\'s default "*; q=.2" as */* with weight 0.2 (once: the same range repeated counts once)', () => {
    expect(summary('text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2')).toEqual([
      'text/html q=1',
      'image/gif q=1',
      'image/jpeg q=1',
      '*/* q=0.2',
    ]);
  });

  it('drops accept-ext parameters after q', () => {
    expect(summary('text/html;level=1;q=0.5;ext=1')).toEqual(['text/html;level=1 q=0.5']);
  });

  it('keeps commas inside quoted parameter values', () => {
    expect(summary('text/plain;x="a,b";q=0.1')).toEqual(['text/plain;x=a,b q=0.1']);
  });

  it('keeps a range whose parameter differs only by a quoted ";" from an earlier one (a="x;b=y" is not a=x;b=y)', () => {
    const ranges = parseAccept('text/plain;a="x;b=y";q=0, text/plain;a=x;b=y');
    expect(ranges.map((range) => [range.params, range.q])).toEqual([
      [{ a: 'x;b=y' }, 0],
      [{ a: 'x', b: 'y' }, 1],
    ]);
  });

  it('returns the same frozen list for the same header', () => {
    const ranges = parseAccept('application/json');
    expect(parseAccept('application/json')).toBe(ranges);
    expect(Object.isFrozen(ranges)).toBe(true);
    expect(Object.isFrozen(ranges[0])).toBe(true);
  });
});
