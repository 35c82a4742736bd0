/** The compression options of the configuration, read once at build time. */
import type { Config } from '../config';
import { isAvailableCoding } from './compress-body';

/** What the response and request (de)compression steps need to know, typed and ready. */
export interface CompressionSettings {
  /** `framework.http.enable-compression`. */
  readonly enabled: boolean;
  /** `framework.http.compress-media-types`, lower-cased base types. */
  readonly mediaTypes: ReadonlySet<string>;
  /** `framework.http.compression-level`, 1 to 9. */
  readonly level: number;
  /** `framework.http.compressors`, in order of preference. */
  readonly codings: readonly string[];
  /** `framework.legacy.gzip.enabled`: whether `@GZIP` methods gzip. */
  readonly legacyGzip: boolean;
  /** `framework.legacy.gzip.max-input`, in bytes: the largest inflated `@GZIP` request body. */
  readonly maxInput: number;
}

/**
 * Reads the compression settings from the configuration.
 *
 * @example compressionSettings(resolveConfig()).enabled // false
 */
export function compressionSettings(config: Config): CompressionSettings {
  return {
    enabled: config.get('framework.http.enable-compression'),
    mediaTypes: new Set(config.get('framework.http.compress-media-types').map((type) => type.trim().toLowerCase())),
    level: config.get('framework.http.compression-level'),
    // Only what the runtime can apply is offered (no brotli without node:zlib).
    codings: config.get('framework.http.compressors').filter(isAvailableCoding),
    legacyGzip: config.get('framework.legacy.gzip.enabled'),
    maxInput: config.get('framework.legacy.gzip.max-input'),
  };
}
