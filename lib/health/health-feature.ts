/** Health as a feature: `@Liveness`/`@Readiness`/`@Startup` classes and the features' checks, answered at one path. */
import { ListKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import { healthAnswers, healthChecks } from './application-health';
import type { RegisteredCheck } from './health-route';

/** The application's health checks: its own classes' first, then those features add (the broadcast's). */
export const HEALTH_CHECKS = new ListKey<RegisteredCheck>('health-checks');

export const healthFeature = defineFeature({
  name: 'health',
  settings: ['framework.health.'],
  phases: ['route'],
  answers: [{ status: 503, when: 'a check is DOWN, or the application is shutting down (readiness)' }],
  transports: { answer: 'framework.health.path and its /live, /ready, /started parts, when no resource has them' },
  build(build) {
    for (const check of healthChecks(build.units, build.problems)) build.contribute(HEALTH_CHECKS, check);
    // From the first moment of a shutdown the readiness check answers DOWN, so load balancers stop sending traffic.
    const lifecycle = { shuttingDown: false };
    return {
      unrouted: () => healthAnswers(build.gather(HEALTH_CHECKS), build.config, lifecycle),
      shutdown: () => void (lifecycle.shuttingDown = true),
    };
  },
});
