// HTTP dates (RFC 9110 §5.6.7), and the one-second resolution Last-Modified comparisons need.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

// Names are case-sensitive and the forms fixed (RFC 9110 §5.6.7); only surrounding space is allowed.
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * Formats a date as IMF-fixdate (RFC 9110 §5.6.7), milliseconds dropped; throws a RangeError for an invalid Date.
 *
 * @example formatHttpDate(new Date(Date.UTC(2007, 11, 3, 10, 15, 30))) // 'Mon, 03 Dec 2007 10:15:30 GMT'
 */
export function formatHttpDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('Cannot format an invalid Date as an HTTP date');
  // ECMA-262 fixes toUTCString() to exactly this form for years 0 to 9999.
  return date.toUTCString();
}

/**
 * Parses an HTTP date in IMF-fixdate, RFC 850 or asctime form (RFC 9110 §5.6.7 requires all three); undefined for
 * anything else, `31 Feb` included. A two-digit year more than 50 years ahead of `now` is read in the past.
 *
 * @example parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')?.toISOString() // '1994-11-06T08:49:37.000Z'
 */
export function parseHttpDate(text: string, now: Date = new Date()): Date | undefined {
  const value = text.trim();
  let match = IMF_FIXDATE.exec(value);
  if (match !== null) return build(+match[3], match[2], +match[1], match.slice(4));
  match = ASCTIME_DATE.exec(value);
  if (match !== null) return build(+match[6], match[1], +match[2].trim(), match.slice(3, 6));
  match = RFC850_DATE.exec(value);
  if (match === null) return undefined;
  const currentYear = now.getUTCFullYear();
  let year = currentYear - (currentYear % 100) + +match[3];
  if (year > currentYear + 50) year -= 100;
  return build(year, match[2], +match[1], match.slice(4));
}

function build(year: number, monthName: string, day: number, time: string[]): Date | undefined {
  const month = MONTHS.indexOf(monthName);
  const [hours, minutes, seconds] = time.map(Number);
  // A leap second (60) is allowed by the grammar but not by Date; it is read as :59.
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month, day); // unlike Date.UTC, keeps years 0-99 as they are
  date.setUTCHours(hours, minutes, Math.min(seconds, 59));
  return date.getUTCDate() === day && date.getUTCMonth() === month ? date : undefined;
}

/** HTTP dates have whole seconds: else a resource is always "modified" since the date the client echoes back. */
export function truncateToSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
