/** The application's broadcast topics and backplane, as `framework.broadcast.*` asks, and its readiness check. */
import { isClusterPrimary } from '../runtime/node-builtins';
import type { Config } from '../config';
import { HealthCheckResponse } from '../health/health-check';
import type { RegisteredCheck } from '../health/health-route';
import type { JsonMapper } from '../json/json-mapper';
import { opened, within } from './application-scope';
import { MemoryBackplane, type Backplane } from './backplane';
import { BroadcastTopics } from './broadcast-topics';
import type { History } from './durable-streams-feature';
import type { Retention } from './event-ring';

export interface ApplicationBroadcast {
  readonly topics: BroadcastTopics;
  /** `broadcast`, a readiness check DOWN while Redis is unreachable (none for the in-memory backend). */
  readonly checks: readonly RegisteredCheck[];
  /** Runs `work` (a request, a socket message) as this application's: a module-level `broadcast()` means its topics. */
  within<R>(work: () => R): R;
  close(): Promise<void>;
}

/** The Redis backplane `framework.broadcast.backend` names; ioredis is loaded only for them. */
function redisBackplane(config: Config, json: JsonMapper, retention: Retention): Backplane {
  const url = config.get('framework.broadcast.redis.url');
  if (config.get('framework.broadcast.backend') === 'redis') {
    const { RedisBackplane } = require('./redis-backplane') as typeof import('./redis-backplane');
    return new RedisBackplane(url, json, retention);
  }
  const { RedisStreamsBackplane } = require('./redis-streams-backplane') as typeof import('./redis-streams-backplane');
  return new RedisStreamsBackplane(url, json, retention, config.get('framework.broadcast.redis.live-window'));
}

/** The application's topics; the primary of `framework.http.workers` serves nothing, so it does not connect. */
export function applicationBroadcast(config: Config, json: JsonMapper, history: History): ApplicationBroadcast {
  const settings = {
    ...history,
    maxEventSize: config.get('framework.broadcast.max-event-size'),
    maxTopics: config.get('framework.broadcast.max-topics'),
  };
  const backend = config.get('framework.broadcast.backend');
  const supervisesOnly = config.get('framework.http.workers') > 1 && isClusterPrimary();
  const local = backend === 'memory' || supervisesOnly;
  const backplane = local ? new MemoryBackplane() : redisBackplane(config, json, history.retention);
  const topics = new BroadcastTopics(backplane, settings, json);
  backplane.start(topics.listener);
  const closed = opened(topics);
  const check: RegisteredCheck = {
    name: 'broadcast',
    kinds: ['readiness'],
    check: {
      call: () =>
        HealthCheckResponse.named('broadcast').status(backplane.connected).withData('backend', backend).build(),
    },
  };
  return {
    topics,
    checks: local ? [] : [check],
    within: (work) => within(topics, work),
    close: async () => {
      await topics.close();
      closed();
      await backplane.close();
    },
  };
}
