/** User-registered parameter converters (`ParamConverterProvider`), the first rule of parameter conversion. */
import type { EnumLike } from '../decorators/params';
import { guarded, type Converter } from './class-converter';

/** Converts a parameter's string to a value of one type. */
export interface ParamConverter<T = unknown> {
  fromString(value: string): T;
  /** The reverse, for tools that write parameters (unused by the server). */
  toString?(value: T): string;
}

/**
 * A `@Provider` class offering converters by type, asked before every built-in rule; `undefined` passes to the next.
 *
 * @example
 * \@Provider()
 * class PointConverters implements ParamConverterProvider {
 *   getConverter(type: unknown) {
 *     return type === Point ? { fromString: (text: string) => Point.parse(text) } : undefined;
 *   }
 * }
 */
export interface ParamConverterProvider {
  getConverter(type: Function | EnumLike): ParamConverter | undefined | null;
}

export function isParamConverterProvider(value: unknown): value is ParamConverterProvider {
  return typeof (value as ParamConverterProvider | null)?.getConverter === 'function';
}

/** Asked once at build time. */
export function providedConverter(
  providers: readonly ParamConverterProvider[],
  type: Function | EnumLike,
): Converter | undefined {
  for (const provider of providers) {
    const converter = provider.getConverter(type);
    if (converter) return guarded((raw) => converter.fromString(raw));
  }
  return undefined;
}
