/** Makes the application's JSON mapper from configuration, customizers and an optional user producer. */
import { DefaultJsonMapper } from './default-json-mapper';
import type { JsonMapper, JsonMapperCustomizer, JsonMapperProducer } from './json-mapper';

/** The user's mapper when a producer is registered (it applies the customizers itself), else the default one. */
export function createJsonMapper(
  settings: { readonly failOnUnknownProperties: boolean; readonly writeDatesAsTimestamps: boolean },
  customizers: readonly JsonMapperCustomizer[],
  producer?: JsonMapperProducer,
): JsonMapper {
  if (producer) return producer.produceJsonMapper(customizers);
  const mapper = new DefaultJsonMapper()
    .configure('fail-on-unknown-properties', settings.failOnUnknownProperties)
    .configure('write-dates-as-timestamps', settings.writeDatesAsTimestamps);
  for (const customizer of customizers) customizer.customize(mapper);
  return mapper;
}
