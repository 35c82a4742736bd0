/** Compression as a feature: responses compressed by negotiation, `@Compressed`/`@Uncompressed`/`@GZIP` methods. */
import { COMPRESSION_MODE } from '../decorators/compression';
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import type { EndpointJoin } from '../feature/feature';
import { REQUEST_COMPRESSION_MODE } from './compress-response';
import { compressionSettings, type CompressionSettings } from './compression-settings';
import { inflateStep } from './inflate-request';

/** The compression settings the write phase uses; absent when no answer can ever be compressed. */
export const COMPRESSION = new BuildKey<CompressionSettings>('compression');

export const compressionFeature = defineFeature({
  name: 'compression',
  settings: [
    'framework.http.enable-compression',
    'framework.http.compress-media-types',
    'framework.http.compression-level',
    'framework.http.compressors',
    'framework.legacy.gzip.',
  ],
  phases: ['admit', 'read', 'write'],
  answers: [
    { status: 400, when: 'a @GZIP request body that is not gzip' },
    { status: 413, when: 'a @GZIP request body inflating past framework.legacy.gzip.max-input' },
  ],
  transports: {
    answer: 'compressed by Accept-Encoding; never a 206 (ranges stay identity) and a weak ETag on a compressed body',
    stream: 'compressed and flushed item by item',
    upgrade: 'not applied (a 101 has no body)',
    message: 'framework.websocket.compression (permessage-deflate), not this feature',
  },
  build(build) {
    const settings = compressionSettings(build.config);
    // With both switches off no response is ever compressed: the write stage then skips the decision.
    if (settings.enabled || settings.legacyGzip) build.provide(COMPRESSION, settings);
    return {
      endpoint(plan) {
        const mode = plan.method.tags.get(COMPRESSION_MODE);
        // A method without a compression decorator gets no step at all, so it costs nothing.
        if (plan.transport !== 'answer' || mode === undefined) return undefined;
        const joins: EndpointJoin[] = [
          { phase: 'admit', step: (ctx) => (ctx.set(REQUEST_COMPRESSION_MODE, mode), ctx) },
        ];
        // Only `@GZIP` with the legacy switch on inflates; an inflated body may be refused: the document lists both.
        if (mode === 'gzip' && settings.legacyGzip)
          joins.push({ phase: 'read', step: inflateStep(settings.maxInput), answers: [400, 413] });
        return joins;
      },
    };
  },
});
