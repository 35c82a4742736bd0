/**
 * ISO-8601 dates and date-times read without a library; without an offset the date is local, as date-fns's `parseISO`
 * reads it. Stricter than `parseISO`: an offset past 23:59 and a `T` with no time after it are refused.
 */
const ISO =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?|(\d{2})(\d{2}))?(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function readIsoDate(text: string): Date | undefined {
  const match = ISO.exec(text);
  if (!match) return undefined;
  const [, y, extendedMonth, extendedDay, basicMonth, basicDay, h, m, s, fraction, zone] = match;
  const year = Number(y);
  const month = Number(extendedMonth ?? basicMonth ?? 1);
  const day = Number(extendedDay ?? basicDay ?? 1);
  const [hours, minutes, seconds] = [h, m, s].map((part) => Number(part ?? 0));
  // Cut to milliseconds, never rounded: `.9999999999999999` read as a number is 1, a whole second more.
  const millis = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (minutes > 59 || seconds > 59 || hours > 24 || (hours === 24 && (minutes > 0 || seconds > 0 || millis > 0)))
    return undefined;
  if (zone === undefined) {
    // Set field by field: the Date constructor would take years 0 to 99 for 1900 to 1999.
    const local = new Date(2000, 0, 1);
    local.setFullYear(year, month - 1, day);
    local.setHours(hours, minutes, seconds, millis);
    return local;
  }
  let offset = 0;
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMinutes = Number(digits.slice(2) || 0);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    offset = (zone[0] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hours, minutes, seconds, millis);
  return new Date(utc.getTime() - offset * 60_000);
}
