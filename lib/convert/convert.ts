/** Turns raw parameter strings into typed values, compiled once per parameter. */
import type { EnumLike, TypeHint } from '../decorators/params';
import { classConverter, ConversionError, findStatic, type Converter } from './class-converter';
import { readDate } from '../json/date-text';
import { providedConverter, type ParamConverterProvider } from './param-converter';

export { ConversionError, type Converter } from './class-converter';

export type Collection = 'array' | 'set' | 'sorted-set';

export interface ResolvedType {
  /** Of one element. */
  readonly convert: Converter;
  readonly collection?: Collection;
  /** For messages. */
  readonly name: string;
}

export interface ConversionOptions {
  /** Asked first, in priority order. */
  readonly providers?: readonly ParamConverterProvider[];
  /** `@DateFormat`. */
  readonly dateFormat?: string;
  /** `{ collection }`. */
  readonly collection?: Collection;
}

/** An enum given as its object (`{ type: Color }`). */
export function isEnumLike(value: unknown): value is EnumLike {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An enum's members: not a numeric enum's reverse entries (`Level[-1] === 'Below'`), nor a merged `fromString`. */
export function enumMembers(values: EnumLike): [string, string | number][] {
  return Object.entries(values).filter(
    (entry): entry is [string, string | number] =>
      typeof entry[1] !== 'function' && !(typeof entry[1] === 'string' && values[entry[1]] === Number(entry[0])),
  );
}

const identity: Converter = (raw) => raw;

/** A `string` parameter's: its values need no conversion at all. */
export function keepsText(convert: Converter): boolean {
  return convert === identity;
}

/** Whether `value` is the integer `raw` names, where it names one (digits, `0x`/`0o`/`0b` digits, a `.0` fraction). */
function holdsExactly(raw: string, value: number): boolean {
  // A fraction, or an integer within 2^53, is the double it names (checked without a thrown BigInt: a hot path).
  if (Number.isSafeInteger(value) || (Number.isFinite(value) && !Number.isInteger(value))) return true;
  let named: bigint;
  try {
    named = BigInt(raw.trim().replace(/\.0*$/, ''));
  } catch {
    // No integer text (a fraction, an exponent): a number is the nearest double, as for any decimal.
    return true;
  }
  return Number.isFinite(value) && named === BigInt(value);
}

function numberConverter(raw: string): number {
  // Number() skips surrounding white space itself, but reads a blank string as 0: only a 0 needs the check.
  const value = Number(raw);
  if (Number.isNaN(value) || (value === 0 && raw.trim() === '')) throw new ConversionError(`"${raw}" is not a number`);
  // Digits past 2^53 would be read as a neighbour (9007199254740993 as ...992, or Infinity): another id, another resource.
  if (!holdsExactly(raw, value))
    throw new ConversionError(`"${raw}" is past the integers a number holds exactly (use bigint)`);
  // An exponent past the largest double (1e400) is no number a method can use, unlike the text Infinity.
  if (!Number.isFinite(value) && /\d/.test(raw)) throw new ConversionError(`"${raw}" is past the largest number`);
  return value;
}

function booleanConverter(raw: string): boolean {
  const text = raw.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new ConversionError(`"${raw}" is not a boolean (true or false)`);
}

function bigintConverter(raw: string): bigint {
  try {
    return BigInt(raw.trim());
  } catch {
    throw new ConversionError(`"${raw}" is not an integer`);
  }
}

/** By member value or name; a merged static `fromString` wins. */
function enumConverter(values: EnumLike): Converter {
  const fromString = findStatic(values, 'fromString');
  if (fromString) return (raw) => fromString.call(values, raw);
  const allowed = new Map<string, string | number>();
  for (const [key, value] of enumMembers(values)) {
    allowed.set(String(value), value);
    allowed.set(key, value);
  }
  return (raw) => {
    if (allowed.has(raw)) return allowed.get(raw);
    throw new ConversionError(`"${raw}" is not one of ${[...new Set(allowed.values())].join(', ')}`);
  };
}

/** ISO-8601 (local forms in the server's time zone), or the whole text matching a date-fns pattern. */
function dateConverter(pattern?: string): Converter {
  const expected = pattern === undefined ? 'is not an ISO-8601 date' : `does not match the date format ${pattern}`;
  return (raw) => {
    const value = readDate(raw.trim(), pattern);
    if (value === undefined) throw new ConversionError(`"${raw}" ${expected}`);
    return value;
  };
}

const primitives = new Map<Function, [Converter, string]>([
  [String, [identity, 'string']],
  [Number, [numberConverter, 'number']],
  [Boolean, [booleanConverter, 'boolean']],
  [BigInt, [bigintConverter, 'bigint']],
]);

/** `Object`, `Array`, `undefined` and non-constructors are what emitters write for unknown types. */
export function isUnknownDesignType(type: unknown): boolean {
  return type === undefined || type === Object || type === Array || typeof type !== 'function';
}

/** The converter of one element: providers, primitives, `Date`, enums, then class constructors and factories. */
function elementConverter(
  type: Function | EnumLike | undefined,
  options: ConversionOptions,
): [Converter, string] | undefined {
  const provided = type === undefined ? undefined : providedConverter(options.providers ?? [], type);
  if (provided) return [provided, describeType(type)];
  if (type === undefined || (isUnknownDesignType(type) && !isEnumLike(type))) return [identity, 'string'];
  if (isEnumLike(type)) return [enumConverter(type), 'enum'];
  const primitive = primitives.get(type);
  if (primitive) return primitive;
  if (type === Date) return [dateConverter(options.dateFormat), 'Date'];
  const converter = classConverter(type);
  return converter && [converter, type.name];
}

export function describeType(type: unknown): string {
  if (Array.isArray(type)) return `${describeType(type[0])}[]`;
  return typeof type === 'function' ? type.name : isEnumLike(type) ? 'enum' : String(type);
}

/** From the parameter's hint, else its design type; `undefined` (a build error) when no string converts to it. */
export function resolveType(
  hint: TypeHint | undefined,
  designType: unknown,
  options: ConversionOptions = {},
): ResolvedType | undefined {
  let element: Function | EnumLike | undefined;
  let collection = options.collection;
  if (Array.isArray(hint)) {
    element = hint[0] as Function | EnumLike;
    collection ??= 'array';
  } else {
    const type = (hint as Function | EnumLike | undefined) ?? designType;
    if (type === Array || type === Set) collection ??= type === Set ? 'set' : 'array';
    else if (!isUnknownDesignType(type) || isEnumLike(type)) element = type as Function | EnumLike;
  }
  const resolved = elementConverter(element, options);
  if (!resolved) return undefined;
  const [convert, name] = resolved;
  return collection ? { convert, collection, name: `${collection}<${name}>` } : { convert, name };
}
