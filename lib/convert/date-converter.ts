/** Parses `Date` parameters: ISO-8601 by default (read natively), or a `@DateFormat` pattern (through date-fns). */
import { readDate } from '../json/date-text';
import { ConversionError, type Converter } from './class-converter';

/**
 * A `Date` converter. Without a pattern it accepts ISO-8601 dates and date-times (`1984-08-08`,
 * `1984-08-08T01:02:03`, `1984-08-08T01:02:03Z`); local forms are read in the server's time zone, as
 * date-fns's parseISO does. With a pattern (date-fns tokens such as `dd-MM-yyyy`) the whole text must match it.
 */
export function dateConverter(pattern?: string): Converter {
  const expected = pattern === undefined ? 'is not an ISO-8601 date' : `does not match the date format ${pattern}`;
  return (raw) => {
    const value = readDate(raw.trim(), pattern);
    if (value === undefined) throw new ConversionError(`"${raw}" ${expected}`);
    return value;
  };
}
