/** The JSON value types (`JsonValue`, `JsonObject`, `JsonArray`): TypeScript types plus runtime tokens for `{ type }`. */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonObject | JsonArray;
export type JsonObject = { [key: string]: JsonValue };
export type JsonArray = JsonValue[];

/** A runtime token standing for a JSON value type in `@Body({ type })`. */
export interface JsonTypeToken {
  (): never;
  readonly jsonKind: 'value' | 'object' | 'array';
}

function token(name: string, jsonKind: JsonTypeToken['jsonKind']): JsonTypeToken {
  const fn = function (): never {
    throw new TypeError(`${name} is a type token, not a function`);
  };
  Object.defineProperty(fn, 'name', { value: name });
  return Object.assign(fn, { jsonKind }) as JsonTypeToken;
}

/** Any JSON value: `@Body({ type: JsonValue }) body: JsonValue`. */
export const JsonValue = token('JsonValue', 'value');
/** A JSON object (not an array, not null), checked at runtime. */
export const JsonObject = token('JsonObject', 'object');
/** A JSON array, checked at runtime. */
export const JsonArray = token('JsonArray', 'array');

export function isJsonTypeToken(type: unknown): type is JsonTypeToken {
  return type === JsonValue || type === JsonObject || type === JsonArray;
}

export function fitsJsonKind(kind: JsonTypeToken['jsonKind'], value: unknown): boolean {
  if (kind === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  if (kind === 'array') return Array.isArray(value);
  return true;
}
