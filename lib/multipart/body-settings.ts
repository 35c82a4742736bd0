/** What compiled argument readers need from the application (all of it, from its configuration): limits, converters, body providers, JSON. */
import type { JsonMapper } from '../json/json-mapper';
import type { BodyProviders } from '../providers/body-providers';
import type { ParamConverterProvider } from '../convert/param-converter';
import type { MultipartSettings } from './multipart-settings';

export interface BodySettings {
  /** `framework.http.limits.max-body-size`, in bytes. */
  readonly maxBodySize: number;
  /** `framework.http.limits.max-stream-item-size`: one item of a body of items, in bytes. */
  readonly maxStreamItemSize: number;
  /** Registered parameter converters, in priority order. */
  readonly converters: readonly ParamConverterProvider[];
  /** User readers and reader interceptors. */
  readonly providers: BodyProviders;
  /** The application's JSON mapper. */
  readonly json: JsonMapper;
  /** Multipart limits and upload storage (where a `LocalFile` body goes too). */
  readonly multipart: MultipartSettings;
}
