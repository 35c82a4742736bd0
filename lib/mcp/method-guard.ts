/**
 * Security and limits on one MCP method: `@Authenticated`/`@RolesAllowed` hide it from the lists of callers who may
 * not use it and answer its calls 401/403 as a resource method would; `@RateLimit` counts its calls apart. The steps
 * are the security and rate-limit features' own, joined to the method as a call through its server's endpoint.
 */
import { ACCESS_RULE, type AccessRule } from '../decorators/security';
import type { MethodMeta } from '../metadata/store';
import type { Unit } from '../metadata/unit';
import { chain, type StageFn } from '../pipeline/chain';
import type { SecurityContext } from '../security/security-context';
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
export function methodGuard(unit: Unit, method: MethodMeta, where: string, context: McpBuildContext): MethodGuard {
  const info = { ...context.info, methodName: method.name };
  const joined = context.joins({ unit, method, where, info, produces: [], streams: false, transport: 'call' });
  const steps = [...joined.at('authenticate'), ...joined.at('admit')];
  return { rule: method.tags.get(ACCESS_RULE), check: steps.length ? chain(steps) : undefined };
}
