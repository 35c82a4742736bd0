// ISO-8601 dates read without date-fns, checked against date-fns's parseISO (a dev dependency) on the forms rxrest
// reads: the same instant for every valid text, and nothing for what parseISO refuses too.
import { parseISO } from 'date-fns/parseISO';
import { readIsoDate } from '../../lib/json/iso-date';

const VALID = [
  '1984',
  '1984-08',
  '1984-08-08',
  '19840808',
  '0099-03-04',
  '2024-02-29',
  '1984-08-08T01',
  '1984-08-08T01:02',
  '1984-08-08T01:02:03',
  '1984-08-08T01:02:03.4',
  '1984-08-08T01:02:03.456',
  '1984-08-08T01:02:03,456789',
  '1984-08-08 01:02:03',
  '1984-08-08T010203',
  '1984-08-08T01:02:03Z',
  '1984-08-08T01:02:03.999Z',
  '1984-08-08T01:02:03+02',
  '1984-08-08T01:02:03+02:30',
  '1984-08-08T01:02:03-0530',
  '1984-08-08T24:00',
  '1984-12-31T24:00:00Z',
  '19840808T0102Z',
];

const INVALID = [
  '',
  'yesterday',
  '1984-13-01',
  '1984-02-30',
  '2023-02-29',
  '1984-08-32',
  '1984-08-08T25:00',
  '1984-08-08T01:60',
  '1984-08-08T01:02:60',
  '1984-08-08T24:01',
  '84-08-08',
  '1984-8-8',
  '1984-08-08T01:02:03z',
  '1984-08-08T01:02:03 Z',
];

/** What parseISO lets through and rxrest refuses: an offset of 25 hours, a `T` with no time. */
const STRICTER = ['1984-08-08T01:02:03+25:00', '1984-08-08T'];

describe('ISO-8601 dates read natively', () => {
  it.each(STRICTER)('refuse %j, which parseISO lets through', (text) => {
    expect(Number.isNaN(parseISO(text).getTime())).toBe(false);
    expect(readIsoDate(text)).toBeUndefined();
  });

  it.each(VALID)('read %s as date-fns parseISO does', (text) => {
    const expected = parseISO(text);
    expect(Number.isNaN(expected.getTime())).toBe(false);
    expect(readIsoDate(text)?.getTime()).toBe(expected.getTime());
  });

  it.each(INVALID)('refuse %j, as parseISO does', (text) => {
    expect(readIsoDate(text)).toBeUndefined();
    expect(Number.isNaN(parseISO(text).getTime())).toBe(true);
  });
});
