/** Dates as text: ISO-8601 natively, a pattern such as `dd-MM-yyyy` with date-fns (an optional peer, loaded late). */
import { loadPackage } from '../runtime/load-package';
import type { format as Format } from 'date-fns/format';
import type { isValid as IsValid } from 'date-fns/isValid';
import type { parse as Parse } from 'date-fns/parse';
import { readIsoDate } from './iso-date';

const fns: { format?: typeof Format; isValid?: typeof IsValid; parse?: typeof Parse } = {};

/** Where a pattern without a year, month or day takes them from. */
const REFERENCE = new Date(2000, 0, 1);

/** The date of `text`: ISO-8601 (local forms in the server's time zone), or the whole text fitting `pattern`. */
export function readDate(text: string, pattern?: string): Date | undefined {
  if (pattern === undefined) return readIsoDate(text);
  const isValid = (fns.isValid ??= loadPackage<typeof import('date-fns/isValid')>('date-fns/isValid').isValid);
  const parse = (fns.parse ??= loadPackage<typeof import('date-fns/parse')>('date-fns/parse').parse);
  const date = parse(text, pattern, REFERENCE);
  return isValid(date) ? date : undefined;
}

export function writeDate(date: Date, pattern: string): string {
  return (fns.format ??= loadPackage<typeof import('date-fns/format')>('date-fns/format').format)(date, pattern);
}
