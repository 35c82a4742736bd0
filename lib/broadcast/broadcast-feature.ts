/** Broadcast as a feature: the application's topics, on memory, Redis pub/sub or Redis Streams. */
import { JSON_MAPPER } from '../feature/core-keys';
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import { HEALTH_CHECKS } from '../health/health-feature';
import { applicationBroadcast, type ApplicationBroadcast } from './application-broadcast';
import { scoping } from './application-scope';
import { HISTORY } from './durable-streams-feature';

/** The application's broadcast, once the build stands (it connects to Redis): what `fetch` runs requests within. */
export const BROADCAST = new BuildKey<() => ApplicationBroadcast>('broadcast');

export const broadcastFeature = defineFeature({
  name: 'broadcast',
  settings: [
    'framework.broadcast.backend',
    'framework.broadcast.redis.',
    'framework.broadcast.max-event-size',
    'framework.broadcast.max-topics',
  ],
  phases: ['receive', 'invoke', 'write'],
  answers: [
    { status: 413, when: 'an event larger than framework.broadcast.max-event-size published over HTTP' },
    { status: 503, when: 'past framework.broadcast.max-topics, or Redis unreachable' },
  ],
  transports: {
    answer: 'publish from any handler: a module-level broadcast() means the application’s own topics',
    stream: 'subscribers are streams, resumed after Last-Event-ID by the durable-streams feature',
    message: 'socket handlers publish and subscribe the same topics',
  },
  packages: (build) => {
    const backend = build.config.get('framework.broadcast.backend');
    return backend === 'redis' ? [{ name: 'ioredis', feature: 'framework.broadcast.backend=redis' }] : [];
  },
  build(build) {
    let started: ApplicationBroadcast | undefined;
    build.provide(BROADCAST, () => {
      if (!started) throw new Error('The application’s broadcast is used before its build finished');
      return started;
    });
    return {
      // A module-level broadcast() in a handler means this application's topics: alone in the process, it needs no scope.
      around: () => (started !== undefined && scoping() ? started.within : undefined),
      start() {
        started = applicationBroadcast(build.config, build.find(JSON_MAPPER)!, build.find(HISTORY)!);
        for (const check of started.checks) build.contribute(HEALTH_CHECKS, check);
      },
      close: () => started?.close(),
    };
  },
});
