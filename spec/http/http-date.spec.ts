import { formatHttpDate, parseHttpDate, truncateToSeconds } from '../../lib/http/http-date';

const NOV_6_1994 = Date.UTC(1994, 10, 6, 8, 49, 37);

describe('formatHttpDate', () => {
  it('writes IMF-fixdate in GMT', () => {
    expect(formatHttpDate(new Date(Date.UTC(2007, 11, 3, 10, 15, 30)))).toBe('Mon, 03 Dec 2007 10:15:30 GMT');
    expect(formatHttpDate(new Date(Date.UTC(2021, 0, 1)))).toBe('Fri, 01 Jan 2021 00:00:00 GMT');
  });

  it('drops milliseconds', () => {
    expect(formatHttpDate(new Date(NOV_6_1994 + 999))).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
  });

  it('throws a RangeError for an invalid Date', () => {
    expect(() => formatHttpDate(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('parseHttpDate', () => {
  it('reads the three forms of RFC 9110 §5.6.7', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')?.getTime()).toBe(NOV_6_1994);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')?.getTime()).toBe(NOV_6_1994);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')?.getTime()).toBe(NOV_6_1994);
  });

  it('round-trips formatHttpDate', () => {
    const date = new Date(Date.UTC(2021, 0, 2));
    expect(parseHttpDate(formatHttpDate(date))?.getTime()).toBe(date.getTime());
  });

  it('tolerates surrounding whitespace', () => {
    expect(parseHttpDate('  Sun, 06 Nov 1994 08:49:37 GMT ')?.getTime()).toBe(NOV_6_1994);
  });

  it('reads a two-digit RFC 850 year within 50 years ahead as this century, else the last', () => {
    const now = new Date(Date.UTC(2025, 5, 1));
    expect(parseHttpDate('Monday, 01-Jan-74 00:00:00 GMT', now)?.getUTCFullYear()).toBe(2074);
    expect(parseHttpDate('Monday, 01-Jan-76 00:00:00 GMT', now)?.getUTCFullYear()).toBe(1976);
    expect(parseHttpDate('Monday, 01-Jan-25 00:00:00 GMT', now)?.getUTCFullYear()).toBe(2025);
  });

  it('keeps four-digit years below 100 as they are', () => {
    expect(parseHttpDate('Sat, 01 Jan 0050 00:00:00 GMT')?.getUTCFullYear()).toBe(50);
  });

  it('reads a leap second as the 59th second', () => {
    expect(parseHttpDate('Wed, 31 Dec 2008 23:59:60 GMT')?.getTime()).toBe(Date.UTC(2008, 11, 31, 23, 59, 59));
  });

  it('returns undefined for malformed or impossible dates', () => {
    const invalid = [
      '',
      'yesterday',
      '2007-12-03T10:15:30Z',
      'Mon, 03 Dec 2007 10:15:30 UTC',
      'mon, 03 dec 2007 10:15:30 GMT',
      'Mon, 3 Dec 2007 10:15:30 GMT',
      'Mon, 31 Feb 2007 10:15:30 GMT',
      'Mon, 03 Dec 2007 24:00:00 GMT',
      'Mon, 03 Dec 2007 10:60:00 GMT',
      'Mon, 03 Dec 2007 10:15:30 GMT, Tue, 04 Dec 2007 10:15:30 GMT',
      'Sun, 06-Nov-94 08:49:37 GMT',
    ];
    for (const text of invalid) expect(parseHttpDate(text)).toBeUndefined();
  });
});

describe('truncateToSeconds', () => {
  it('drops milliseconds', () => {
    expect(truncateToSeconds(new Date(NOV_6_1994 + 999)).getTime()).toBe(NOV_6_1994);
    expect(truncateToSeconds(new Date(1500)).getTime()).toBe(1000);
  });

  it('rounds dates before 1970 down too', () => {
    expect(truncateToSeconds(new Date(-1500)).getTime()).toBe(-2000);
  });

  it('returns a new Date', () => {
    const date = new Date(1000);
    expect(truncateToSeconds(date)).not.toBe(date);
  });
});
