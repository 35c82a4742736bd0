/** Decorators choosing how a method's response is compressed; they record metadata only. */
import { metaKey } from '../metadata/store';
import { methodTag, type MethodDecoratorFn } from './decorator-types';

/**
 * How one method's bodies are (de)compressed: `compressed` whatever the Content-Type, `uncompressed`
 * never, `gzip` the legacy stack's gzip both ways (`framework.legacy.gzip.enabled`).
 */
export type CompressionMode = 'compressed' | 'uncompressed' | 'gzip';

export const COMPRESSION_MODE = metaKey<CompressionMode>('compression-mode');

/**
 * Compresses the method's responses when `framework.http.enable-compression` is on and the client
 * accepts a coding, even when their Content-Type is not in `framework.http.compress-media-types`.
 *
 * @example \@GET \@Compressed @Produces('foo/bar') data() { return 'x'.repeat(1000); }
 */
export const Compressed: MethodDecoratorFn = methodTag(COMPRESSION_MODE, 'compressed');

/**
 * Never compresses the method's responses, whatever their Content-Type.
 *
 * @example \@GET \@Uncompressed page() { return '<html>...</html>'; }
 */
export const Uncompressed: MethodDecoratorFn = methodTag(COMPRESSION_MODE, 'uncompressed');

/**
 * Legacy stack: gzips the method's responses for clients accepting gzip and inflates its gzip request
 * bodies (bounded by `framework.legacy.gzip.max-input`), when `framework.legacy.gzip.enabled` is on.
 * `framework.http.enable-compression` has no effect on such a method.
 *
 * @example \@POST \@GZIP upload(text: string) { return text; }
 */
export const GZIP: MethodDecoratorFn = methodTag(COMPRESSION_MODE, 'gzip');
