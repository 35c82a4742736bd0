/**
 * Tracing as a feature: a declaration only. Spans come from `@opentelemetry/api`, a no-op until the application
 * registers an SDK, so the pipeline opens the request span itself (it must wrap every other phase) and there is
 * nothing to build or to configure.
 */
import { defineFeature } from '../feature/define-feature';

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
  build: () => undefined,
});
