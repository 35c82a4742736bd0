/** Converts a string to an instance of a user class: one-string constructor, else static `valueOf`, else `fromString`. */
import { messageOf } from '../errors/message-of';

/** Throws a `ConversionError` when the text is not a value of the type. */
export type Converter = (raw: string) => unknown;

export class ConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionError';
  }
}

/** A static method of the object or its superclasses (never `Function.prototype`'s or `Object.prototype`'s). */
export function findStatic(type: object, name: string): ((raw: string) => unknown) | undefined {
  for (
    let current: unknown = type;
    current && current !== Function.prototype && current !== Object.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    const candidate = Object.getOwnPropertyDescriptor(current, name)?.value;
    if (typeof candidate === 'function') return candidate as (raw: string) => unknown;
  }
  return undefined;
}

/** Wraps a user function so that what it throws becomes a `ConversionError` (a 404/400, never a 500). */
export function guarded(make: Converter, invalid?: (raw: string) => string): Converter {
  return (raw) => {
    try {
      return make(raw);
    } catch (error) {
      if (error instanceof ConversionError || isHttpError(error)) throw error;
      const reason = messageOf(error);
      throw new ConversionError(invalid ? `${invalid(raw)}: ${reason}` : reason);
    }
  };
}

/** Errors carrying an HTTP status (a `WebApplicationException` thrown by a factory) keep it. */
function isHttpError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}

/** A constructor taking one string, else static `valueOf`, else `fromString`. */
export function classConverter(type: Function): Converter | undefined {
  const invalid = (raw: string) => `"${raw}" is not a valid ${type.name}`;
  if (type.length === 1) return guarded((raw) => new (type as new (raw: string) => unknown)(raw), invalid);
  const factory = findStatic(type, 'valueOf') ?? findStatic(type, 'fromString');
  return factory && guarded((raw) => factory.call(type, raw), invalid);
}
