/** The per-endpoint compression stages, built once: mark the method's mode, inflate `@GZIP` request bodies. */
import { COMPRESSION_MODE } from '../decorators/compression';
import type { MethodMeta } from '../metadata/store';
import type { StageFn } from '../context/settle';
import { REQUEST_COMPRESSION_MODE } from './compress-response';
import type { CompressionSettings } from './compression-settings';
import { inflateRequest } from './inflate-request';

export interface EndpointCompression {
  /** Records the method's `@Compressed`/`@Uncompressed`/`@GZIP` for the writer; absent for other methods. */
  readonly mark?: StageFn;
  /** Replaces a gzip request body by its bounded inflation; only for `@GZIP` with the legacy switch on. */
  readonly inflate?: StageFn;
}

/**
 * The compression stages of one method: none at all for a method without a compression decorator,
 * so it costs nothing.
 *
 * @example const { mark, inflate } = compileCompression(method, compressionSettings(config));
 */
export function compileCompression(method: MethodMeta, settings: CompressionSettings | undefined): EndpointCompression {
  const mode = method.tags.get(COMPRESSION_MODE);
  if (mode === undefined) return {};
  const mark: StageFn = (ctx) => {
    ctx.set(REQUEST_COMPRESSION_MODE, mode);
    return ctx;
  };
  if (mode !== 'gzip' || !settings?.legacyGzip) return { mark };
  const limit = settings.maxInput;
  const inflate: StageFn = (ctx) => {
    const inflated = inflateRequest(ctx.request, limit);
    if (inflated !== ctx.request) ctx.replaceRequest(inflated);
    return ctx;
  };
  return { mark, inflate };
}
