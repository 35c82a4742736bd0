/** What an access rule can answer with: the one place security, the OpenAPI document and socket upgrades learn it. */
import type { AccessRule } from '../decorators/security';
import type { SecurityContext } from './security-context';

export function needsCaller(rule: AccessRule | undefined): boolean {
  return rule !== undefined && rule.kind !== 'permit-all';
}

/** Whether `security` passes `rule`. */
export function allows(rule: AccessRule | undefined, security: SecurityContext): boolean {
  if (rule === undefined || rule.kind === 'permit-all') return true;
  if (rule.kind === 'deny-all' || !security.userPrincipal) return false;
  return rule.kind === 'authenticated' || rule.roles.some((role) => security.isUserInRole(role));
}

/**
 * The statuses `rule` can answer with: 401 without an accepted credential, 403 for a caller it refuses. Without an
 * authentication mechanism (`secured` false) only `@DenyAll` can stand (the others are build errors): 403 to all.
 */
export function accessAnswers(rule: AccessRule | undefined, secured: boolean): number[] {
  if (!needsCaller(rule)) return [];
  if (!secured) return [403];
  const anyCaller = rule!.kind === 'authenticated' || (rule!.kind === 'roles' && rule!.roles.includes('**'));
  return anyCaller ? [401] : [401, 403];
}

/** A rule that needs a caller, on an application with no authentication mechanism, is a problem: never open by mistake. */
export function missingMechanism(rule: AccessRule | undefined, secured: boolean): string | undefined {
  if (secured || (rule?.kind !== 'authenticated' && rule?.kind !== 'roles')) return undefined;
  return `@${rule.kind === 'roles' ? 'RolesAllowed' : 'Authenticated'} needs an authentication mechanism: set framework.security.jwt.jwks-url or .public-key-file, or pass authentication to build()`;
}
