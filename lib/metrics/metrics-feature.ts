/** Metrics as a feature, served for Prometheus. */
import { HELD_BYTES, OPEN_STREAMS, WORKER_QUEUE } from '../feature/core-keys';
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import type { ApplicationMetrics } from './application-metrics';

/** The application's metrics (absent when `framework.metrics.enabled=false`): `app.metrics` and MCP servers use them. */
export const METRICS = new BuildKey<ApplicationMetrics>('metrics');

export const metricsFeature = defineFeature({
  name: 'metrics',
  settings: ['framework.metrics.'],
  phases: ['route', 'complete'],
  transports: {
    answer: 'http_server_requests_seconds by method, route template, status and outcome',
    stream:
      'timed to its head; rxrest_streams_active counts the open ones, rxrest_stream_buffered_bytes what they hold',
    upgrade: 'the upgrade is timed like any request (101)',
  },
  packages: (build) =>
    build.config.get('framework.metrics.enabled')
      ? [{ name: 'prom-client', feature: 'framework.metrics.enabled=true' }]
      : [],
  build(build) {
    if (!build.config.get('framework.metrics.enabled')) return undefined;
    let metrics: ApplicationMetrics | undefined;
    return {
      // prom-client is loaded only when metrics are on, and once the build found no problem (it may be missing).
      start() {
        const { ApplicationMetrics } = require('./application-metrics') as typeof import('./application-metrics');
        const openStreams = build.find(OPEN_STREAMS);
        const workerQueue = build.find(WORKER_QUEUE);
        const heldBytes = build.find(HELD_BYTES);
        metrics = new ApplicationMetrics({
          openStreams: () => openStreams?.size ?? 0,
          workerQueue: () => workerQueue?.waiting ?? 0,
          streamBytes: () => heldBytes?.total ?? 0,
        });
        build.provide(METRICS, metrics);
      },
      unrouted: () => (metrics ? [metrics.answer(build.config.get('framework.metrics.path'))] : []),
      get complete() {
        return metrics?.observe;
      },
    };
  },
});
