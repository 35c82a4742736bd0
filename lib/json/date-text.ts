/**
 * Dates as text through date-fns: ISO-8601, or a Unicode pattern such as `dd-MM-yyyy`. Each function of the
 * package is loaded at the first date read or written with it: an application without dates never loads it.
 */
import type { format as Format } from 'date-fns/format';
import type { isValid as IsValid } from 'date-fns/isValid';
import type { parse as Parse } from 'date-fns/parse';
import type { parseISO as ParseIso } from 'date-fns/parseISO';

const fns: { format?: typeof Format; isValid?: typeof IsValid; parse?: typeof Parse; parseISO?: typeof ParseIso } = {};

/** Where a pattern without a year, month or day takes them from. */
const REFERENCE = new Date(2000, 0, 1);

/**
 * The date `text` stands for: ISO-8601 (a date, or a date-time; local forms in the server's time zone, as date-fns
 * reads them), or the whole text matching `pattern`. `undefined` when it does not.
 */
export function readDate(text: string, pattern?: string): Date | undefined {
  const isValid = (fns.isValid ??= (require('date-fns/isValid') as typeof import('date-fns/isValid')).isValid);
  const date =
    pattern === undefined
      ? (fns.parseISO ??= (require('date-fns/parseISO') as typeof import('date-fns/parseISO')).parseISO)(text)
      : (fns.parse ??= (require('date-fns/parse') as typeof import('date-fns/parse')).parse)(text, pattern, REFERENCE);
  return isValid(date) ? date : undefined;
}

/** `date` written with `pattern`. */
export function writeDate(date: Date, pattern: string): string {
  return (fns.format ??= (require('date-fns/format') as typeof import('date-fns/format')).format)(date, pattern);
}
