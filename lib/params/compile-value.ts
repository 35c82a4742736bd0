/** Compiles a named parameter (path, query, header, cookie, form, matrix): raw strings in, a converted value out. */
import type { ZodType } from 'zod';
import type { ParamOptions } from '../decorators/params';
import { httpProblem } from '../errors/http-problem';
import type { ParamKind } from '../metadata/store';
import type { RequestContext } from '../context/request-context';
import type { PathTemplate } from '../routing/path-template';
import type { BodySettings } from '../multipart/body-settings';
import { ConversionError, describeType, keepsText, resolveType, type Collection } from '../convert/convert';
import { compileMapReader, isMapType } from './read-form';
import { rawReader, type RawValues } from './raw-values';
import { validate } from './read-body-argument';

export interface ValueParam {
  readonly kind: ParamKind;
  readonly name: string;
  readonly options: ParamOptions;
  readonly designType: unknown;
  readonly defaultValue?: string;
  readonly separator?: string;
  readonly dateFormat?: string;
  readonly settings: BodySettings;
  readonly template: PathTemplate;
}

type ValueConverter = (values: RawValues) => unknown;

/** Path, query and matrix values that do not convert mean "no such resource" (404); the rest are 400. */
const notFoundKinds = new Set<ParamKind>(['path', 'query', 'matrix']);

function failure(kind: ParamKind, name: string, message: string, cause?: unknown): Error {
  const code = notFoundKinds.has(kind) ? 'RXREST_PARAMETER_NOT_FOUND' : 'RXREST_INVALID_PARAMETER';
  return httpProblem(code, `Invalid ${kind} parameter "${name}": ${message}`, { cause });
}

function missing(kind: ParamKind, name: string): Error {
  return httpProblem('RXREST_INVALID_PARAMETER', `The ${kind} parameter "${name}" is required`);
}

/** Absent values take the `@DefaultValue`, else are `undefined` (an empty collection), or 400 when required. */
export function compileValueReader(param: ValueParam): (ctx: RequestContext) => unknown {
  const { kind, name, options } = param;
  const mapType = options.type ?? param.designType;
  if ((kind === 'query' || kind === 'form') && isMapType(mapType))
    return compileMapReader(kind, mapType, param.settings);
  const raw = rawReader(kind, name, param.settings, param.template);
  const finish = valuesConverter(param);
  return (ctx) => {
    const values = raw(ctx);
    return values instanceof Promise ? values.then(finish) : finish(values);
  };
}

function valuesConverter(param: ValueParam): ValueConverter {
  const { kind, name, options } = param;
  const collecting =
    options.collection !== undefined ||
    Array.isArray(options.type) ||
    param.designType === Array ||
    param.designType === Set;
  const required = options.required === true;
  const element = options.schema ? undefined : elementConverter(param);
  // A repeated header arrives joined by commas (RFC 9110 §5.3), so header collections split on them.
  const separator = param.separator ?? (kind === 'header' && collecting ? ',' : undefined);
  if (element !== undefined && element.collection === undefined && separator === undefined)
    return scalarConverter(element.convert, param.defaultValue, required, kind, name);
  const split =
    separator === undefined
      ? (values: readonly string[]) => values
      : (values: readonly string[]) => splitEach(values, separator, param.separator === undefined);
  // Split values are a list of the request's own; unsplit ones may be shared (a request's query map): copied.
  const convert = element
    ? collect(element.collection, element.convert, element.asText && separator !== undefined)
    : schemaConverter(options.schema!, kind, name);
  const defaults = param.defaultValue === undefined ? undefined : split([param.defaultValue]);
  return (values) => {
    // The default values are shared between requests: a request gets its own copy (its values are its own already).
    const present = values === undefined ? defaults?.slice() : split(values);
    if (present === undefined && required) throw missing(kind, name);
    return convert(present);
  };
}

/** A loop rather than `flatMap`, which V8 runs several times slower. */
function splitEach(values: readonly string[], separator: string, trim: boolean): string[] {
  if (values.length === 1 && !trim) return values[0]!.split(separator);
  const parts: string[] = [];
  for (const value of values) for (const part of value.split(separator)) parts.push(trim ? part.trim() : part);
  return parts;
}

/** The usual parameter, one value converted: one function per request, not the chain of split, collect, convert. */
function scalarConverter(
  convert: (text: string) => unknown,
  fallback: string | undefined,
  required: boolean,
  kind: ParamKind,
  name: string,
): ValueConverter {
  return (values) => {
    const text = values === undefined ? fallback : values[0];
    if (text !== undefined) return convert(text);
    if (required) throw missing(kind, name);
    return undefined;
  };
}

/** Failures mapped to the parameter's status. */
function elementConverter(param: ValueParam) {
  const { kind, name, options, designType } = param;
  const type = resolveType(options.type, designType, {
    providers: param.settings.converters,
    dateFormat: param.dateFormat,
    collection: options.collection,
  });
  if (!type) {
    throw new Error(
      `the type ${describeType(options.type ?? designType)} of ${kind} parameter "${name}" cannot be converted from a string: give it a one-string constructor, a static valueOf or fromString, a ParamConverterProvider, or a { type } / { schema } option`,
    );
  }
  const convert = (raw: string): unknown => {
    try {
      return type.convert(raw);
    } catch (error) {
      if (error instanceof ConversionError) throw failure(kind, name, error.message, error);
      throw error;
    }
  };
  return { convert, collection: type.collection, asText: keepsText(type.convert) };
}

/** `ownText`: strings kept as they are, in a list that is the request's own: no copy made. */
function collect(collection: Collection | undefined, one: (raw: string) => unknown, ownText: boolean): ValueConverter {
  switch (collection) {
    case 'array':
      return ownText ? (values) => (values ?? []) as string[] : (values) => (values ?? []).map(one);
    case 'set':
      return (values) => new Set((values ?? []).map(one));
    case 'sorted-set':
      return (values) => new Set((values ?? []).map(one).sort(naturalOrder));
    default:
      return (values) => (values === undefined ? undefined : one(values[0]));
  }
}

function schemaConverter(schema: ZodType, kind: ParamKind, name: string): ValueConverter {
  return (values) =>
    validate(
      schema,
      values === undefined ? undefined : values.length === 1 ? values[0] : values,
      `Invalid ${kind} parameter "${name}"`,
      { in: kind, prefix: name },
    );
}

interface Comparable {
  compareTo(other: unknown): number;
}

/** Numbers, bigints and dates by value; objects by their `compareTo`; everything else by its string's code units. */
function naturalOrder(a: unknown, b: unknown): number {
  if (typeof (a as Comparable | null)?.compareTo === 'function') return (a as Comparable).compareTo(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint'))
    return a < b ? -1 : a > b ? 1 : 0;
  const left = String(a);
  const right = String(b);
  return left < right ? -1 : left > right ? 1 : 0;
}
