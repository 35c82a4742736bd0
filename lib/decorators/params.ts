/** Parameter decorators: where each argument of an endpoint comes from. They only record metadata. */
import type { ZodType } from 'zod';
import { metaKey, type ParamKind, type ParamMeta, Tags } from '../metadata/store';
import { memberProperty, parameterMeta, paramTag, tagFactory, type ParamOrPropertyDecorator } from './decorator-types';

/** An enum given as its object (`{ type: Color }`); a merged `fromString` function is used when present. */
export type EnumLike = Readonly<Record<string, string | number | Function>>;

/**
 * The type of a parameter when decorator metadata cannot tell it (erased generics, enums, builds
 * without metadata): a constructor such as `Number`, `Date` or a class, an enum object, or a one-element
 * array for a list of that type (`[Number]`).
 */
export type TypeHint = Function | EnumLike | readonly [Function | EnumLike];

export interface ParamOptions {
  /** The parameter's type, when metadata does not give it (see {@link TypeHint}). */
  type?: TypeHint;
  /** A zod schema the raw value is validated and converted with (failures answer 400 with each violation). */
  schema?: ZodType;
  /**
   * Whether the value must be present. Bodies are required unless `false` (an empty body is then
   * `undefined`); other parameters are optional (`undefined` when absent) unless `true`.
   */
  required?: boolean;
  /**
   * How a collection parameter collects its values: `'array'` (also `{ type: [T] }`), `'set'`, or
   * `'sorted-set'` (a `Set` iterating in natural order: numbers, bigints and dates by value, strings by
   * code unit, objects by their `compareTo`).
   */
  collection?: 'array' | 'set' | 'sorted-set';
  /**
   * The body is a stream of items (a `Multi`), for a parameter whose type metadata cannot say so (`Multi`
   * imported as a type only); `type` and `schema` then describe each item.
   */
  stream?: boolean;
}

export const PARAM_OPTIONS = metaKey<ParamOptions>('param-options');
export const DEFAULT_VALUE = metaKey<string>('default-value');
export const SEPARATOR = metaKey<string>('separator');
export const DATE_FORMAT = metaKey<string>('date-format');

function record(
  kind: ParamKind,
  name: string | undefined,
  options: ParamOptions | undefined,
  nameRequired: boolean,
): ParamOrPropertyDecorator {
  return (target, propertyKey, parameterIndex) => {
    let meta: ParamMeta;
    if (typeof parameterIndex === 'number') meta = parameterMeta(target, propertyKey, parameterIndex, kind);
    else {
      meta = { index: -1, kind, tags: new Tags() };
      memberProperty(target, propertyKey!).params.push(meta);
    }
    meta.kind = kind;
    meta.name = name;
    meta.nameRequired = nameRequired;
    if (options) meta.tags.set(PARAM_OPTIONS, options);
  };
}

/**
 * Throws for a factory used as the decorator (`@RestPath id`): tsc reports it (TS1329), but transpile-only tools
 * emit it, and the parameter would silently become the request body.
 */
function refuseUncalled(decorator: string, target: unknown, key: unknown): void {
  const isClass = typeof target === 'function';
  const isPrototype =
    typeof target === 'object' &&
    target !== null &&
    (target as { constructor?: { prototype?: unknown } }).constructor?.prototype === target;
  if (!isClass && !isPrototype) return;
  const owner = isClass ? (target as Function).name : (target as { constructor: Function }).constructor.name;
  const member = typeof key === 'string' || typeof key === 'symbol' ? `.${String(key)}` : '';
  throw new TypeError(
    `@${decorator} on ${owner}${member} must be called: write @${decorator}() or @${decorator}('name')`,
  );
}

function restFamily(kind: ParamKind, decorator: string) {
  return (nameOrOptions?: string | ParamOptions, options?: ParamOptions): ParamOrPropertyDecorator => {
    refuseUncalled(decorator, nameOrOptions, options);
    return typeof nameOrOptions === 'string'
      ? record(kind, nameOrOptions, options, false)
      : record(kind, undefined, nameOrOptions, false);
  };
}

function specFamily(kind: ParamKind, decorator: string) {
  return (name: string, options?: ParamOptions): ParamOrPropertyDecorator => {
    refuseUncalled(decorator, name, options);
    return record(kind, name, options, true);
  };
}

function unnamedFamily(kind: ParamKind) {
  return (options?: ParamOptions): ParamOrPropertyDecorator => record(kind, undefined, options, false);
}

/** A path template variable; optional when the parameter is named after the variable. */
export const RestPath = restFamily('path', 'RestPath');
/** A query parameter, named after the parameter unless given. */
export const RestQuery = restFamily('query', 'RestQuery');
/** A request header, named after the parameter unless given. */
export const RestHeader = restFamily('header', 'RestHeader');
/** A cookie, named after the parameter unless given. */
export const RestCookie = restFamily('cookie', 'RestCookie');
/** A URL-encoded or multipart form field, named after the parameter unless given. */
export const RestForm = restFamily('form', 'RestForm');
/** A matrix parameter of a path segment, named after the parameter unless given. */
export const RestMatrix = restFamily('matrix', 'RestMatrix');

/** The specification's form of {@link RestPath}; the name is required. */
export const PathParam = specFamily('path', 'PathParam');
/** The specification's form of {@link RestQuery}; the name is required. */
export const QueryParam = specFamily('query', 'QueryParam');
/** The specification's form of {@link RestHeader}; the name is required. */
export const HeaderParam = specFamily('header', 'HeaderParam');
/** The specification's form of {@link RestCookie}; the name is required. */
export const CookieParam = specFamily('cookie', 'CookieParam');
/** The specification's form of {@link RestForm}; the name is required. */
export const FormParam = specFamily('form', 'FormParam');
/** The specification's form of {@link RestMatrix}; the name is required. */
export const MatrixParam = specFamily('matrix', 'MatrixParam');

/** The request body, for a parameter that needs options (an unannotated parameter is the body already). */
export const Body = unnamedFamily('body');
/** A context object chosen by the parameter's type (`RequestContext`, `UriInfo`, `HttpHeaders`...). */
export const Context = unnamedFamily('context');
/** A class whose properties carry parameter decorators, filled from one request. */
export const BeanParam = unnamedFamily('bean');

/**
 * The value used when the parameter is absent, converted like a sent value (a collection receives it
 * as its one element, split by `@Separator` when there is one).
 *
 * @example
 * list(\@RestQuery() \@DefaultValue('10') limit: number) {}
 */
export const DefaultValue: (value: string) => ParamOrPropertyDecorator = tagFactory(paramTag, DEFAULT_VALUE);

/**
 * Splits every value of a collection parameter on `separator`: `?name=a,b&name=c` with
 * `@Separator(',')` gives `['a', 'b', 'c']`.
 *
 * @example
 * names(\@RestQuery({ type: [String] }) \@Separator(',') name: string[]) {}
 */
export const Separator: (separator: string) => ParamOrPropertyDecorator = tagFactory(paramTag, SEPARATOR);

let dateFormats = 0;

/**
 * The pattern a `Date` parameter is parsed with (date-fns tokens: `dd-MM-yyyy`, `yyyy/MM/dd HH:mm`);
 * without it dates are ISO-8601 (`1984-08-08`, `1984-08-08T01:02:03Z`).
 *
 * @example
 * byDay(\@RestQuery() \@DateFormat('dd-MM-yyyy') date: Date) {}
 */
export function DateFormat(pattern: string): ParamOrPropertyDecorator {
  dateFormats++;
  return paramTag(DATE_FORMAT, pattern);
}

/** Whether any `@DateFormat` was declared (its patterns are read with date-fns, an optional peer dependency). */
export function dateFormatsDeclared(): boolean {
  return dateFormats > 0;
}
