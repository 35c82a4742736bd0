/**
 * Tracing as a feature: spans from `@opentelemetry/api`, a no-op until the application registers an SDK (asked per
 * request, so an SDK registered after the build is used). The request span wraps every other phase of a request, from
 * `receive` until its head is written; a stream has its own span.
 */
import { defineFeature } from '../feature/define-feature';
import { requestSpan } from './request-span';

export const tracingFeature = defineFeature({
  name: 'tracing',
  settings: [],
  phases: ['receive', 'write', 'complete'],
  transports: {
    answer: 'a server span per request, ended when the head is written; W3C trace context read from the request',
    stream: 'a span of its own per stream, with items, drops, bytes and why it ended',
    upgrade: 'the upgrade request is traced like any request',
    message: 'broadcast publishes and deliveries carry the trace context across the backplane',
  },
  build: () => ({ around: requestSpan }),
});
