/** The compression options of the configuration, read once at build time. */
import type { Config } from '../config';
import { isAvailableCoding } from './compress-body';

export type CompressionSettings = ReturnType<typeof compressionSettings>;

export function compressionSettings(config: Config) {
  return {
    enabled: config.get('framework.http.enable-compression'),
    /** Lower-cased base types. */
    mediaTypes: new Set(
      config.get('framework.http.compress-media-types').map((type) => type.trim().toLowerCase()),
    ) as ReadonlySet<string>,
    /** 1 to 9. */
    level: config.get('framework.http.compression-level'),
    /** In order of preference; only what the runtime can apply is offered (no brotli without node:zlib). */
    codings: config.get('framework.http.compressors').filter(isAvailableCoding) as readonly string[],
    legacyGzip: config.get('framework.legacy.gzip.enabled'),
    /** `framework.legacy.gzip.max-input`, in bytes: the largest inflated `@GZIP` request body. */
    maxInput: config.get('framework.legacy.gzip.max-input'),
  };
}
