/** Compression as a feature: responses compressed by negotiation, `@Compressed`/`@Uncompressed`/`@GZIP` methods. */
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import type { EndpointJoin } from '../feature/feature';
import { compileCompression } from './compile-compression';
import { compressionSettings, type CompressionSettings } from './compression-settings';

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
        if (plan.transport !== 'answer') return undefined;
        const { mark, inflate } = compileCompression(plan.method, settings);
        const joins: EndpointJoin[] = [];
        if (mark) joins.push({ phase: 'admit', step: mark });
        // An inflated body may be refused: the operation's document lists both answers.
        if (inflate) joins.push({ phase: 'read', step: inflate, answers: [400, 413] });
        return joins;
      },
    };
  },
});
