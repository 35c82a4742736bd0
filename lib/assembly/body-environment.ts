/** Gathers, at build time, what body reading and writing need: providers, the JSON mapper and upload settings. */
import type { Config } from '../config';
import { createBuiltinWriters, type EntityWriter } from '../body/entity-writers';
import { PROVIDER } from '../decorators/providers';
import { createJsonMapper } from '../json/create-json-mapper';
import type { JsonMapper } from '../json/json-mapper';
import type { BodySettings } from '../multipart/body-settings';
import { BodyProviders, type ProviderInstance } from '../providers/body-providers';

export interface BodyEnvironment {
  readonly providers: BodyProviders;
  readonly json: JsonMapper;
  /** Body settings for argument readers (spread into the build's body settings). */
  readonly settings: Omit<BodySettings, 'maxBodySize'>;
  /** User writers then `extra` then the built-ins, wrapped by the writer interceptors. */
  writers(extra: readonly EntityWriter[]): EntityWriter[];
}

/** Reads every `@Provider` instance once; the JSON mapper is configured from `framework.json.*`. */
export function bodyEnvironment(units: readonly ProviderInstance[], config: Config): BodyEnvironment {
  const providers = new BodyProviders(units.filter((unit) => unit.meta.tags.has(PROVIDER)));
  const json = createJsonMapper(
    {
      failOnUnknownProperties: config.get('framework.json.fail-on-unknown-properties'),
      writeDatesAsTimestamps: config.get('framework.json.write-dates-as-timestamps'),
    },
    providers.jsonCustomizers,
    providers.jsonProducer,
  );
  return {
    providers,
    json,
    settings: {
      converters: providers.converters,
      providers,
      json,
      uploadsDirectory: config.get('framework.http.body.uploads-directory'),
      deleteUploadsOnEnd: config.get('framework.http.body.delete-uploaded-files-on-end'),
    },
    writers: (extra) => providers.entityWriters([...extra, ...createBuiltinWriters(json)]),
  };
}
