/** The default JSON mapper: safe parsing, JSON → class instances, dates as ISO-8601 or timestamps. */
import { writeDate } from './date-text';
import { parseJsonBody } from './safe-json';
import { httpProblem } from '../errors/http-problem';
import { bindClass, type Deserializer } from './bind-class';
import { JSON_FORMAT, jsonFormatsDeclared } from './json-decorators';
import type { JsonMapper } from './json-mapper';
import { classChain } from '../metadata/store';
import { fitsJsonKind, isJsonTypeToken } from './json-values';

/** Both default to `false`: unknown properties ignored, dates as ISO-8601. */
export type JsonFeature = 'fail-on-unknown-properties' | 'write-dates-as-timestamps';

export type Serializer = (value: never) => unknown;

/** Writes a `bigint` as its decimal string (JSON.stringify throws on one). */
export function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * The mapper used unless an application supplies its own; configure it through `framework.json.*` or a customizer.
 *
 * @example
 * const mapper = new DefaultJsonMapper().configure('write-dates-as-timestamps', true);
 * mapper.writeValueAsString({ at: new Date(0) }); // {"at":0}
 */
export class DefaultJsonMapper implements JsonMapper {
  readonly #features = new Map<JsonFeature, boolean>();
  readonly #serializers = new Map<Function, Serializer>();
  readonly #deserializers = new Map<Function, Deserializer>();
  /** `JSON.stringify` writes what the field-aware path would (unless `@JsonFormat` dates). */
  #plainStringify = true;

  configure(feature: JsonFeature, enabled: boolean): this {
    this.#features.set(feature, enabled);
    this.#plainStringify = this.#serializers.size === 0 && !this.isEnabled('write-dates-as-timestamps');
    return this;
  }

  isEnabled(feature: JsonFeature): boolean {
    return this.#features.get(feature) ?? false;
  }

  /** Writes instances of `type` as what `serialize` returns (then JSON-encoded). */
  addSerializer<T>(type: abstract new (...args: never[]) => T, serialize: (value: T) => unknown): this {
    this.#serializers.set(type, serialize as Serializer);
    this.#plainStringify = false;
    return this;
  }

  /** Reads values declared as `type` with `deserialize` (it receives the parsed JSON). */
  addDeserializer<T>(type: abstract new (...args: never[]) => T, deserialize: (json: unknown) => T): this {
    this.#deserializers.set(type, deserialize);
    return this;
  }

  readValue(text: string, type?: unknown): unknown {
    const value = parseJsonBody(text);
    if (type === undefined) return value;
    if (isJsonTypeToken(type)) {
      if (!fitsJsonKind(type.jsonKind, value))
        throw httpProblem('RXREST_MALFORMED_BODY', `The request body is not a ${type.name}`);
      return value;
    }
    return bindClass(value, type, {
      failOnUnknown: this.isEnabled('fail-on-unknown-properties'),
      deserializers: this.#deserializers,
    });
  }

  /** `JSON.stringify` itself unless the field-aware path would write otherwise (the replacer costs 1.6–2.3×). */
  writeValueAsString(value: unknown): string {
    if (this.#plainStringify && (!jsonFormatsDeclared() || !mayHoldFormattedDate(value, 0))) {
      try {
        return JSON.stringify(value) ?? 'null';
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        return JSON.stringify(value, bigintReplacer) ?? 'null';
      }
    }
    return JSON.stringify(value, this.#replacer()) ?? 'null';
  }

  #replacer(): (this: unknown, key: string, value: unknown) => unknown {
    const timestamps = this.isEnabled('write-dates-as-timestamps');
    const serializers = this.#serializers;
    return function (this: unknown, key: string, value: unknown): unknown {
      // JSON.stringify has already called toJSON (a Date is a string by now): read the original from the holder.
      const raw = (this as Record<string, unknown>)[key];
      if (raw instanceof Date) {
        const pattern = fieldFormat(this as object, key);
        if (pattern) return writeDate(raw, pattern);
        return timestamps ? raw.getTime() : value;
      }
      if (typeof raw === 'object' && raw !== null) {
        const serialize = serializers.get(raw.constructor);
        if (serialize) return serialize(raw as never);
      }
      return typeof value === 'bigint' ? value.toString() : value;
    };
  }
}

// Deeper values are not walked: the field-aware path takes them (JSON this deep is rare, and stringify bounds it anyway).
const MAX_WALK_DEPTH = 32;

/**
 * Whether writing `value` may meet a `@JsonFormat` field: a `Date` held by a class instance (formats are declared on
 * classes), or anything the walk cannot see through (a `toJSON` method, great depth).
 */
function mayHoldFormattedDate(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || value instanceof Date) return false;
  if (depth > MAX_WALK_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  if (Array.isArray(value)) return value.some((item) => mayHoldFormattedDate(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  const plain = prototype === Object.prototype || prototype === null;
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (field instanceof Date ? !plain : mayHoldFormattedDate(field, depth + 1)) return true;
  }
  return false;
}

/** `holder`: what JSON.stringify hands a replacer as `this`, always an object or array. */
function fieldFormat(holder: object, key: string): string | undefined {
  return classChain(holder.constructor)
    .map((meta) => meta.properties.get(key)?.tags.get(JSON_FORMAT)?.pattern)
    .find(Boolean);
}
