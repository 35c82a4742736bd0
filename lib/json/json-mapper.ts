/** The JSON mapping contract: what readers and writers call, and how applications customize or replace it. */

/** Turns JSON text into values of a declared type, and values into JSON text. */
export interface JsonMapper {
  /**
   * Parses `text` into a value of `type` (a class, `Date`, a JSON value token, or `undefined` for any
   * JSON value). Throws an HTTP 400 problem for malformed text or content that does not fit the type.
   */
  readValue(text: string, type?: unknown): unknown;
  writeValueAsString(value: unknown): string;
}

/**
 * A `@Provider` class adjusting the default mapper before the application starts, in priority order (lower first).
 *
 * @example
 * \@Provider()
 * class StrictJson implements JsonMapperCustomizer {
 *   customize(mapper: DefaultJsonMapper) { mapper.configure('fail-on-unknown-properties', true); }
 * }
 */
export interface JsonMapperCustomizer<M = unknown> {
  customize(mapper: M): void;
}

/**
 * A `@Provider` class supplying the application's own mapper; it receives the customizers and must apply them itself.
 *
 * @example
 * \@Provider()
 * class MyMapperProducer implements JsonMapperProducer {
 *   produceJsonMapper(customizers: readonly JsonMapperCustomizer[]) { const m = new MyMapper(); customizers.forEach((c) => c.customize(m)); return m; }
 * }
 */
export interface JsonMapperProducer {
  produceJsonMapper(customizers: readonly JsonMapperCustomizer[]): JsonMapper;
}

export function isJsonMapperCustomizer(value: unknown): value is JsonMapperCustomizer {
  return typeof (value as JsonMapperCustomizer | null)?.customize === 'function';
}

export function isJsonMapperProducer(value: unknown): value is JsonMapperProducer {
  return typeof (value as JsonMapperProducer | null)?.produceJsonMapper === 'function';
}
