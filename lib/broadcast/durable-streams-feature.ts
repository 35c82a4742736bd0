/** Durable streams as a feature: a topic's history, so a subscriber resumes after `Last-Event-ID` with no gap. */
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import type { Retention } from './event-ring';

/** How much history a topic, and the application across its topics, keep (`framework.broadcast.retention.*`). */
export interface History {
  readonly retention: Retention;
  readonly maxTotalBytes: number;
}

export const HISTORY = new BuildKey<History>('durable-streams');

export const durableStreamsFeature = defineFeature({
  name: 'durable-streams',
  settings: ['framework.broadcast.retention.'],
  phases: ['invoke', 'write'],
  answers: [
    { status: 400, when: 'a Last-Event-ID that is not an event id of the backplane' },
    { status: 503, when: 'a publish the backplane cannot store, or Redis unreachable when a stream resumes' },
  ],
  transports: {
    stream:
      'SSE ids are the backplane’s: a reconnect with Last-Event-ID replays what it missed (in pages under the stream budget), then goes on live; event: reset when the history no longer reaches back',
    message: 'a socket subscribing with an event id resumes the same way',
  },
  packages: (build) =>
    build.config.get('framework.broadcast.backend') === 'redis-streams'
      ? [{ name: 'ioredis', feature: 'framework.broadcast.backend=redis-streams' }]
      : [],
  build(build) {
    const { config } = build;
    build.provide(HISTORY, {
      retention: {
        maxEvents: config.get('framework.broadcast.retention.max-events'),
        maxAgeMs: config.get('framework.broadcast.retention.max-age'),
        maxBytes: config.get('framework.broadcast.retention.max-bytes'),
      },
      maxTotalBytes: config.get('framework.broadcast.retention.max-total-bytes'),
    });
    // Always on (the history of memory topics too); its work is the broadcast's, with this history.
    return {};
  },
});
