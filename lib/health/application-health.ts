/** The application's health checks and the route answering them, as the configuration asks. */
import type { Config } from '../config';
import { HEALTH_KINDS } from '../decorators/health';
import { locate, type ProblemCollector } from '../errors/definition-error';
import type { ClassMeta } from '../metadata/store';
import type { UnroutedAnswer } from '../context/settle';
import type { HealthCheck } from './health-check';
import { healthAnswer, type RegisteredCheck } from './health-route';

/** Whether the application is shutting down (set at the start of a shutdown, read by the readiness check). */
export interface Lifecycle {
  readonly shuttingDown: boolean;
}

/** The checks among `units` (classes with `@Liveness`, `@Readiness` or `@Startup`); one without `call()` is a build problem. */
export function healthChecks(
  units: readonly { readonly type: Function; readonly meta: ClassMeta; readonly instance: object }[],
  problems: ProblemCollector,
): RegisteredCheck[] {
  return units.flatMap((unit) => {
    const kinds = unit.meta.tags.get(HEALTH_KINDS);
    if (!kinds) return [];
    if (typeof (unit.instance as Partial<HealthCheck>).call !== 'function') {
      problems.add(
        locate(unit.type),
        'a health check class needs a call() method answering a HealthCheckResponse (or a Promise or Observable of one)',
      );
      return [];
    }
    return [{ name: unit.type.name, kinds, check: unit.instance as HealthCheck }];
  });
}

/** When `framework.health.enabled`, what answers `framework.health.path` and its parts. */
export function healthAnswers(
  checks: readonly RegisteredCheck[],
  config: Config,
  lifecycle: Lifecycle,
): UnroutedAnswer[] {
  if (!config.get('framework.health.enabled')) return [];
  return [
    healthAnswer(
      config.get('framework.health.path'),
      checks,
      config.get('framework.health.timeout'),
      () => lifecycle.shuttingDown,
    ),
  ];
}
