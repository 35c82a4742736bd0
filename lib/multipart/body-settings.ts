/** What compiled argument readers need from the application (all of it, from its configuration): limits, converters, body providers, JSON. */
import type { JsonMapper } from '../json/json-mapper';
import type { BodyProviders } from '../providers/body-providers';
import type { ParamConverterProvider } from '../convert/param-converter';
import type { MultipartSettings } from './multipart-settings';

export interface BodySettings {
  /** `framework.http.limits.max-body-size`. */
  readonly maxBodySize: number;
  /** `framework.http.limits.max-stream-item-size`. */
  readonly maxStreamItemSize: number;
  readonly converters: readonly ParamConverterProvider[];
  readonly providers: BodyProviders;
  readonly json: JsonMapper;
  /** Where a `LocalFile` body goes too. */
  readonly multipart: MultipartSettings;
}
