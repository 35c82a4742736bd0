/** Health as a feature: `@Liveness`/`@Readiness`/`@Startup` classes and the features' checks, answered at one path. */
import { HEALTH_KINDS } from '../decorators/health';
import { locate } from '../errors/definition-error';
import { ListKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import type { HealthCheck } from './health-check';
import { healthAnswer, type RegisteredCheck } from './health-route';

/** The application's health checks: its own classes' first, then those features add (the broadcast's). */
export const HEALTH_CHECKS = new ListKey<RegisteredCheck>('health-checks');

export const healthFeature = defineFeature({
  name: 'health',
  settings: ['framework.health.'],
  phases: ['route'],
  answers: [{ status: 503, when: 'a check is DOWN, or the application is shutting down (readiness)' }],
  transports: { answer: 'framework.health.path and its /live, /ready, /started parts, when no resource has them' },
  build(build) {
    for (const unit of build.units) {
      const kinds = unit.meta.tags.get(HEALTH_KINDS);
      if (!kinds) continue;
      if (typeof (unit.instance as Partial<HealthCheck>).call === 'function')
        build.contribute(HEALTH_CHECKS, { name: unit.type.name, kinds, check: unit.instance as HealthCheck });
      else
        build.problems.add(
          locate(unit.type),
          'a health check class needs a call() method answering a HealthCheckResponse (or a Promise or Observable of one)',
        );
    }
    const { config } = build;
    if (!config.get('framework.health.enabled')) return undefined;
    // From the first moment of a shutdown the readiness check answers DOWN, so load balancers stop sending traffic.
    let shuttingDown = false;
    return {
      unrouted: () => [
        healthAnswer(
          config.get('framework.health.path'),
          build.gather(HEALTH_CHECKS),
          config.get('framework.health.timeout'),
          () => shuttingDown,
        ),
      ],
      shutdown: () => void (shuttingDown = true),
    };
  },
});
