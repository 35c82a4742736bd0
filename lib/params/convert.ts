/** Turns raw parameter strings into typed values (spec 4.4.1), compiled once per parameter. */
import type { EnumLike, TypeHint } from '../decorators/params';

/** Converts one raw string; throws a `ConversionError` when the text is not a value of the type. */
export type Converter = (raw: string) => unknown;

export class ConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionError';
  }
}

/** What the build step knows of a parameter's type. */
export interface ResolvedType {
  /** The element converter. */
  readonly convert: Converter;
  /** Whether the parameter collects every value (a list, a set). */
  readonly collection?: 'array' | 'set';
  /** A readable name for messages. */
  readonly name: string;
}

function isEnumLike(value: unknown): value is EnumLike {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const identity: Converter = (raw) => raw;

function numberConverter(raw: string): number {
  const text = raw.trim();
  const value = text === '' ? Number.NaN : Number(text);
  if (Number.isNaN(value)) throw new ConversionError(`"${raw}" is not a number`);
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

function dateConverter(raw: string): Date {
  const value = new Date(raw);
  if (Number.isNaN(value.getTime())) throw new ConversionError(`"${raw}" is not an ISO-8601 date`);
  return value;
}

function enumConverter(values: EnumLike): Converter {
  const allowed = new Map<string, string | number>();
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'number' && /^\d+$/.test(key)) continue;
    allowed.set(String(value), value);
    allowed.set(key, value);
  }
  return (raw) => {
    if (allowed.has(raw)) return allowed.get(raw);
    throw new ConversionError(`"${raw}" is not one of ${[...new Set(allowed.values())].join(', ')}`);
  };
}

/** A static method declared by the class or a superclass (never `Function.prototype`'s own `valueOf`). */
function findStatic(type: Function, name: string): ((raw: string) => unknown) | undefined {
  for (let current: unknown = type; typeof current === 'function' && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const candidate = Object.getOwnPropertyDescriptor(current, name)?.value;
    if (typeof candidate === 'function') return candidate as (raw: string) => unknown;
  }
  return undefined;
}

/** A class converter: a one-string constructor, else static `valueOf`, else `fromString` (spec 4.4.1). */
function classConverter(type: Function): Converter | undefined {
  const valueOf = findStatic(type, 'valueOf');
  const fromString = findStatic(type, 'fromString');
  const wrap = (make: (raw: string) => unknown): Converter => (raw) => {
    try {
      return make(raw);
    } catch (error) {
      if (error instanceof ConversionError) throw error;
      throw new ConversionError(`"${raw}" is not a valid ${type.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  if (type.length === 1) return wrap((raw) => new (type as new (raw: string) => unknown)(raw));
  if (valueOf) return wrap((raw) => valueOf.call(type, raw));
  if (fromString) return wrap((raw) => fromString.call(type, raw));
  return undefined;
}

/** Built-in converters for the primitive wrappers and `Date`. */
const primitives = new Map<Function, [Converter, string]>([
  [String, [identity, 'string']],
  [Number, [numberConverter, 'number']],
  [Boolean, [booleanConverter, 'boolean']],
  [BigInt, [bigintConverter, 'bigint']],
  [Date, [dateConverter, 'Date']],
]);

/** `Object`, `Array`, `undefined` and non-constructors are what emitters write for unknown types. */
export function isUnknownDesignType(type: unknown): boolean {
  return type === undefined || type === Object || type === Array || typeof type !== 'function';
}

/**
 * Resolves the converter of a parameter from its explicit hint, else its design type. Returns
 * `undefined` when the type cannot be converted from a string (a build error for the caller).
 */
export function resolveType(hint: TypeHint | undefined, designType: unknown): ResolvedType | undefined {
  if (Array.isArray(hint)) {
    const element = resolveType(hint[0] as TypeHint, undefined);
    return element && { convert: element.convert, collection: 'array', name: `${element.name}[]` };
  }
  if (isEnumLike(hint)) return { convert: enumConverter(hint), name: 'enum' };
  const type = hint ?? designType;
  if (isUnknownDesignType(type)) {
    return designType === Array && hint === undefined ? { convert: identity, collection: 'array', name: 'string[]' } : { convert: identity, name: 'string' };
  }
  const fn = type as Function;
  const primitive = primitives.get(fn);
  if (primitive) return { convert: primitive[0], name: primitive[1] };
  if (fn === Set) return { convert: identity, collection: 'set', name: 'Set<string>' };
  const converter = classConverter(fn);
  return converter && { convert: converter, name: fn.name };
}
