/**
 * Security and limits on one MCP method: `@Authenticated`/`@RolesAllowed` hide it from the lists of callers who may
 * not use it and answer its calls 401/403 as a resource method would; `@RateLimit` counts its calls apart.
 */
import { RATE_LIMIT } from '../decorators/rate-limit';
import { ACCESS_RULE, type AccessRule } from '../decorators/security';
import type { MethodMeta } from '../metadata/store';
import { chain, type StageFn } from '../pipeline/chain';
import type { SecurityContext } from '../security/security-context';
import { securityStep } from '../security/security-stage';
import type { McpBuildContext } from './mcp-build-context';

export interface MethodGuard {
  readonly rule: AccessRule | undefined;
  /** Authenticates and applies the rule and the limit before a call; `undefined` when nothing guards it. */
  readonly check: StageFn | undefined;
}

/** Whether `security` passes `rule` (for lists: a method the caller may not use is not shown to it). */
export function allows(rule: AccessRule | undefined, security: SecurityContext): boolean {
  if (rule === undefined || rule.kind === 'permit-all') return true;
  if (rule.kind === 'deny-all' || !security.userPrincipal) return false;
  return rule.kind === 'authenticated' || rule.roles.some((role) => security.isUserInRole(role));
}

/** The method's own rule and limit (its class's apply to every request, before this). */
export function methodGuard(method: MethodMeta, where: string, context: McpBuildContext): MethodGuard {
  const rule = method.tags.get(ACCESS_RULE);
  if ((rule?.kind === 'authenticated' || rule?.kind === 'roles') && !context.security)
    context.problems.add(
      where,
      `@${rule.kind === 'roles' ? 'RolesAllowed' : 'Authenticated'} needs an authentication mechanism: set framework.security.jwt.jwks-url or .public-key-file, or pass authentication to build()`,
    );
  const steps: StageFn[] = [];
  const security = rule ? securityStep(rule, context.security) : undefined;
  if (security) steps.push(security);
  const declared = method.tags.get(RATE_LIMIT);
  const limit = declared && context.problems.attempt(where, () => context.rateLimits?.step(declared, where, false));
  if (limit) steps.push(limit);
  if (steps.length === 0) return { rule, check: undefined };
  return { rule, check: chain(steps) };
}
