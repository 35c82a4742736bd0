/**
 * Broadcast as a feature: the application's topics on memory, Redis pub/sub or Redis Streams (durable streams:
 * history kept in the backplane, resumed after `Last-Event-ID` on any instance), its readiness check, its close.
 */
import { JSON_MAPPER } from '../feature/core-keys';
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import { HEALTH_CHECKS } from '../health/health-feature';
import { applicationBroadcast, type ApplicationBroadcast } from './application-broadcast';

/** The application's broadcast, once the build stands (it connects to Redis): what `fetch` runs requests within. */
export const BROADCAST = new BuildKey<() => ApplicationBroadcast>('broadcast');

export const broadcastFeature = defineFeature({
  name: 'broadcast',
  settings: ['framework.broadcast.'],
  phases: ['receive', 'invoke', 'write'],
  answers: [{ status: 503, when: 'a publish the backplane cannot store (durable streams), or Redis unreachable' }],
  transports: {
    answer: 'publish from any handler: a module-level broadcast() means the application’s own topics',
    stream:
      'subscribers are streams: SSE ids are the backplane’s, a reconnect with Last-Event-ID resumes without gap or duplicate; loss is announced with event: reset',
    message: 'socket handlers publish and subscribe the same topics',
  },
  packages: (build) => {
    const backend = build.config.get('framework.broadcast.backend');
    return backend === 'memory' ? [] : [{ name: 'ioredis', feature: `framework.broadcast.backend=${backend}` }];
  },
  build(build) {
    let started: ApplicationBroadcast | undefined;
    const broadcast = (): ApplicationBroadcast => {
      if (!started) throw new Error('The application’s broadcast is used before its build finished');
      return started;
    };
    build.provide(BROADCAST, broadcast);
    return {
      // A module-level broadcast() in a handler means this application's topics.
      around: () => started?.within,
      start() {
        started = applicationBroadcast(build.config, build.find(JSON_MAPPER)!);
        for (const check of started.checks) build.contribute(HEALTH_CHECKS, check);
      },
      close: () => started?.close(),
    };
  },
});
