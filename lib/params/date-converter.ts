/** Parses `Date` parameters: ISO-8601 by default, or a `@DateFormat` pattern, both through date-fns. */
import { isValid, parse, parseISO } from 'date-fns';
import { ConversionError, type Converter } from './class-converter';

/**
 * A `Date` converter. Without a pattern it accepts ISO-8601 dates and date-times (`1984-08-08`,
 * `1984-08-08T01:02:03`, `1984-08-08T01:02:03Z`); local forms are read in the server's time zone, as
 * date-fns does. With a pattern (date-fns tokens such as `dd-MM-yyyy`) the whole text must match it.
 */
export function dateConverter(pattern?: string): Converter {
  if (pattern === undefined) {
    return (raw) => {
      const value = parseISO(raw.trim());
      if (!isValid(value)) throw new ConversionError(`"${raw}" is not an ISO-8601 date`);
      return value;
    };
  }
  const reference = new Date(2000, 0, 1);
  return (raw) => {
    const value = parse(raw.trim(), pattern, reference);
    if (!isValid(value)) throw new ConversionError(`"${raw}" does not match the date format ${pattern}`);
    return value;
  };
}
