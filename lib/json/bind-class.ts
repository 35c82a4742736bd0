/** Binds parsed JSON to instances of a declared class (so its methods work), field by field. */
import type { ZodType } from 'zod';
import { readDate } from './date-text';
import { httpProblem } from '../errors/http-problem';
import type { Violation } from '../errors/problem-details';
import { readDesignType } from '../metadata/reflect-shim';
import { classChain, type ClassMeta } from '../metadata/store';
import { JSON_CREATOR, JSON_FORMAT, JSON_IGNORE_PROPERTIES, JSON_PROPERTY } from './json-decorators';

export type Deserializer = (json: unknown) => unknown;

export interface BindOptions {
  readonly failOnUnknown: boolean;
  readonly deserializers: ReadonlyMap<Function, Deserializer>;
}

interface FieldInfo {
  readonly type?: Function;
  readonly array: boolean;
  readonly pattern?: string;
}

/** The static creator marked `@JsonCreator`, if any. */
export function jsonCreator(type: Function): ((json: unknown) => unknown) | undefined {
  const name = classChain(type)
    .map((meta) => meta.tags.get(JSON_CREATOR))
    .find(Boolean);
  return name ? (json) => (type as unknown as Record<string, (json: unknown) => unknown>)[name](json) : undefined;
}

/** The zod schema a class declares as `static schema` (its JSON is validated with it), if any. */
export function classSchema(type: unknown): ZodType | undefined {
  const schema = typeof type === 'function' ? (type as { schema?: unknown }).schema : undefined;
  return typeof (schema as ZodType | undefined)?.safeParse === 'function' ? (schema as ZodType) : undefined;
}

function mismatch(path: string, message: string): Error {
  const violations: Violation[] = [{ in: 'body', field: path, message }];
  // At the root the body itself is what does not fit: "The request body is not a string".
  const detail = path ? `The request body does not fit its type: ${path} ${message}` : `The request body ${message}`;
  return httpProblem('RXREST_MALFORMED_BODY', detail, { violations });
}

function fieldInfo(chain: readonly ClassMeta[], prototype: object, key: string): FieldInfo | undefined {
  const property = chain.map((meta) => meta.properties.get(key)).find(Boolean);
  if (!property) return undefined;
  const declared = property.tags.get(JSON_PROPERTY)?.type;
  const pattern = property.tags.get(JSON_FORMAT)?.pattern;
  const design = readDesignType('design:type', prototype, key);
  const hint = declared ?? (typeof design === 'function' && design !== Object && design !== Array ? design : undefined);
  if (Array.isArray(hint)) return { type: hint[0] as Function, array: true, pattern };
  // A pattern only makes sense for dates: it types the field when metadata does not.
  return { type: (hint as Function | undefined) ?? (pattern ? Date : undefined), array: false, pattern };
}

function failsOnUnknown(chain: readonly ClassMeta[], fallback: boolean): boolean {
  const policy = chain.map((meta) => meta.tags.get(JSON_IGNORE_PROPERTIES)?.ignoreUnknown).find((p) => p !== undefined);
  return policy === undefined ? fallback : !policy;
}

function bindDate(value: unknown, path: string, pattern?: string): Date {
  if (typeof value === 'number') return new Date(value);
  if (typeof value !== 'string') throw mismatch(path, 'is not a date');
  const date = readDate(value, pattern);
  if (date === undefined)
    throw mismatch(path, pattern ? `does not match the date format ${pattern}` : 'is not an ISO-8601 date');
  return date;
}

/** The JSON kind each primitive type's values must be. */
export const PRIMITIVE_TYPES: ReadonlyMap<Function, string> = new Map<Function, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

function bindValue(
  value: unknown,
  type: Function | undefined,
  options: BindOptions,
  path: string,
  pattern?: string,
): unknown {
  if (type === undefined || value === null || value === undefined) return value;
  const deserialize = options.deserializers.get(type);
  if (deserialize) return deserialize(value);
  if (type === Date) return bindDate(value, path, pattern);
  const primitive = PRIMITIVE_TYPES.get(type);
  if (primitive) {
    if (typeof value !== primitive) throw mismatch(path, `is not a ${primitive}`);
    return value;
  }
  if (type === BigInt) {
    try {
      if (typeof value === 'number' || typeof value === 'string') return BigInt(value);
    } catch {
      // A fraction, or text that is no integer, as a value of another kind.
    }
    throw mismatch(path, 'is not an integer');
  }
  return bindObject(value, type, options, path);
}

function bindObject(value: unknown, type: Function, options: BindOptions, path: string): unknown {
  if (typeof value !== 'object' || Array.isArray(value)) throw mismatch(path, `is not an object (${type.name})`);
  const creator = jsonCreator(type);
  if (creator) return creator(value);
  const chain = classChain(type);
  const instance = new (type as new () => Record<string, unknown>)();
  const failOnUnknown = failsOnUnknown(chain, options.failOnUnknown);
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const info = fieldInfo(chain, type.prototype as object, key);
    const where = path ? `${path}.${key}` : key;
    if (!info && failOnUnknown && !Object.prototype.hasOwnProperty.call(instance, key))
      throw mismatch(where, `is not a property of ${type.name}`);
    if (info?.array) {
      if (!Array.isArray(field)) throw mismatch(where, 'is not an array');
      instance[key] = field.map((item, i) => bindValue(item, info.type, options, `${where}.${i}`, info.pattern));
    } else instance[key] = bindValue(field, info?.type, options, where, info?.pattern);
  }
  return instance;
}

/**
 * Binds `value` to `type`: primitives are checked, `Date` fields parsed (ISO-8601 or `@JsonFormat`),
 * objects become instances (through `@JsonCreator` or the no-argument constructor), arrays of the type
 * become arrays of instances. Unknown properties are ignored unless the policy says otherwise.
 */
export function bindClass(value: unknown, type: unknown, options: BindOptions): unknown {
  if (Array.isArray(type)) {
    if (!Array.isArray(value)) throw mismatch('', 'is not an array');
    return value.map((item, i) => bindValue(item, type[0] as Function, options, String(i)));
  }
  if (typeof type !== 'function' || type === Object || type === Array) return value;
  return bindValue(value, type, options, '');
}
