/**
 * The access rule `framework.management.*` puts on the built-in management endpoints (health, metrics, the OpenAPI
 * document, Swagger UI), which answer requests no resource matched and so pass no endpoint's security step: one
 * answer asked before them that authenticates a request to one of their paths and refuses it (401, 403) unless the
 * caller has one of the roles, or passes it on. It knows their paths, not what they serve.
 */
import type { Config } from '../config/config';
import { settingError } from '../config/config-error';
import { settleToPromise, type UnroutedAnswer } from '../context/settle';
import { securityStep, type SecuritySettings } from './security-stage';

/** The paths of the management endpoints the application serves (health only when the rule covers it). */
export function managementPaths(config: Config): string[] {
  const paths: string[] = [];
  if (config.get('framework.health.enabled') && config.get('framework.management.include-health'))
    paths.push(config.get('framework.health.path'));
  if (config.get('framework.metrics.enabled')) paths.push(config.get('framework.metrics.path'));
  if (config.get('framework.openapi.enabled'))
    paths.push(config.get('framework.openapi.path'), config.get('framework.openapi.ui.path'));
  return paths.map((path) => path.replace(/\/+$/, ''));
}

/**
 * What answers first among the requests no resource matched when `framework.management.roles-allowed` names roles
 * (`undefined` without): a request to a management path is let through only for a caller in one of them. A rule
 * nobody could meet (no authentication mechanism) stops the start.
 */
export function managementGuard(config: Config, security: SecuritySettings | undefined): UnroutedAnswer | undefined {
  const roles = config.get('framework.management.roles-allowed');
  if (roles.length === 0) return undefined;
  if (!security)
    throw settingError(
      'framework.management.roles-allowed',
      roles.join(','),
      'an authentication mechanism to check the roles with (framework.security.jwt.* or an AuthenticationMechanism): without one the management endpoints would answer nobody',
    );
  const paths = managementPaths(config);
  const step = securityStep({ kind: 'roles', roles }, security)!;
  const covers = (path: string) => paths.some((base) => path === base || path.startsWith(`${base}/`));
  return (ctx) => {
    if (!covers(ctx.rawPath)) return undefined;
    // A refusal rejects, and is answered as the endpoints' own 401 and 403 are; an admitted caller goes on.
    return Promise.resolve(settleToPromise(step(ctx))).then(() => undefined);
  };
}
