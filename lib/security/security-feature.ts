/** Security as a feature: authentication mechanisms, access rules per endpoint, credentials that expire mid-stream. */
import { ACCESS_RULE } from '../decorators/security';
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import { declaredOn, type EndpointJoin, type EndpointPlan, type Feature } from '../feature/feature';
import type { ProblemCollector } from '../errors/definition-error';
import { accessAnswers, missingMechanism } from './access-answers';
import type { AuthenticationMechanism } from './authentication-mechanism';
import { jwtSettings } from './jwt-mechanism';
import { securitySettings, securityStep, type RefusalCounter, type SecuritySettings } from './security-stage';
import type { Config } from '../config/config';
import { settingError } from '../config/config-error';
import { settleToPromise, type UnroutedAnswer } from '../context/settle';

/** The management endpoints the application serves (health only when the rule covers it). */
function managementPaths(config: Config): string[] {
  const paths: string[] = [];
  if (config.get('framework.health.enabled') && config.get('framework.management.include-health'))
    paths.push(config.get('framework.health.path'));
  if (config.get('framework.metrics.enabled')) paths.push(config.get('framework.metrics.path'));
  if (config.get('framework.openapi.enabled'))
    paths.push(config.get('framework.openapi.path'), config.get('framework.openapi.ui.path'));
  return paths.map((path) => path.replace(/\/+$/, ''));
}

/**
 * The management endpoints pass no endpoint's security step: with `framework.management.roles-allowed`, this one
 * answers first among the unrouted requests, refusing (401, 403) a caller without one of the roles.
 */
function managementGuard(config: Config, security: SecuritySettings | undefined): UnroutedAnswer | undefined {
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

/** The application's authentication (absent without a mechanism): streams, sockets, MCP and OpenAPI read it. */
export const SECURITY = new BuildKey<SecuritySettings>('security');
/** What counts refused credentials per address (the rate limits provide it when they count them). */
export const REFUSALS = new BuildKey<RefusalCounter>('refused-credentials');

/** The security step of an endpoint; a rule no mechanism of the application can meet is a problem. */
function securityJoins(
  plan: EndpointPlan,
  settings: SecuritySettings | undefined,
  problems: ProblemCollector,
): readonly EndpointJoin[] | undefined {
  const rule = declaredOn(plan, ACCESS_RULE);
  // A call's endpoint authenticated the caller already: only a rule of its own adds a step.
  if (plan.transport === 'call' && rule === undefined) return undefined;
  const missing = missingMechanism(rule, settings !== undefined);
  if (missing) problems.add(plan.where, missing);
  const step = securityStep(rule, settings);
  return step ? [{ phase: 'authenticate', step, answers: accessAnswers(rule, settings !== undefined) }] : undefined;
}

/** Security: `own` mechanisms (`build({ authentication })`) tried before the JWTs of `framework.security.jwt.*`. */
export function securityFeature(own: readonly AuthenticationMechanism[] = []): Feature {
  return defineFeature({
    name: 'security',
    settings: ['framework.security.', 'framework.management.'],
    phases: ['route', 'authenticate'],
    answers: [
      { status: 401, when: 'no accepted credential for a method that needs a caller' },
      { status: 403, when: 'a caller the access rule refuses, or @DenyAll' },
      { status: 429, when: 'too many refused credentials from one address (with rate limits counting them)' },
    ],
    transports: {
      answer: 'checked once, after routing, against the matched method',
      stream:
        'checked at the start; the stream ends when the credential expires (framework.security.streams.end-on-expiry)',
      upgrade: 'checked on the upgrade request; a refused one never becomes a socket',
      message: 'the socket closes with 1008 when the credential expires',
    },
    packages: (build) => (jwtSettings(build.config) ? [{ name: 'jose', feature: 'framework.security.jwt.*' }] : []),
    build(build) {
      const refusals = build.find(REFUSALS);
      const settings = securitySettings(build.config, build.directory, own, refusals);
      if (settings) build.provide(SECURITY, settings);
      // Asked before the management paths' own answers, as this feature is listed before theirs.
      const management = managementGuard(build.config, settings);
      return {
        unrouted: () => (management ? [management] : []),
        endpoint: (plan) => securityJoins(plan, settings, build.problems),
      };
    },
  });
}
