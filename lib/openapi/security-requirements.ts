/**
 * Security in the document: the application's authentication mechanisms as Security Scheme Objects, and each
 * operation's requirement from its access rule (`@Authenticated`, `@RolesAllowed`, `@DenyAll`; `@PermitAll` and no
 * rule leave it open).
 */
import type { AccessRule } from '../decorators/security';
import { accessAnswers, needsCaller } from '../security/access-answers';
import type { AuthenticationMechanism, SecurityScheme } from '../security/authentication-mechanism';

/** The schemes of an application, by the name operations refer to them with. */
export type DocumentSchemes = Readonly<Record<string, SecurityScheme>>;

function schemeOf(mechanism: AuthenticationMechanism): SecurityScheme {
  return mechanism.securityScheme ?? { type: 'http', scheme: mechanism.scheme.toLowerCase() };
}

/**
 * The Security Scheme Objects of `mechanisms`, named after their scheme (`Bearer`, `ApiKey`; characters a
 * component name cannot hold become `_`, and a repeated name gets a number).
 */
export function securitySchemes(mechanisms: readonly AuthenticationMechanism[]): DocumentSchemes {
  const schemes: Record<string, SecurityScheme> = {};
  for (const mechanism of mechanisms) {
    const base = mechanism.scheme.replace(/[^A-Za-z0-9._-]/g, '_') || 'scheme';
    let name = base;
    for (let n = 2; name in schemes; n++) name = `${base}_${n}`;
    schemes[name] = schemeOf(mechanism);
  }
  return schemes;
}

/**
 * The operation's `security`: any one of the schemes (with the roles it needs, which OpenAPI 3.1+ lets a non-OAuth
 * requirement list) for a rule that needs a caller, `[]` for an open operation of an application that has schemes,
 * and nothing at all without schemes.
 */
export function operationSecurity(
  rule: AccessRule | undefined,
  schemes: DocumentSchemes,
): Record<string, string[]>[] | undefined {
  const names = Object.keys(schemes);
  if (names.length === 0) return undefined;
  if (!needsCaller(rule)) return [];
  // `**` is any authenticated caller: no role to name.
  const roles = rule?.kind === 'roles' ? rule.roles.filter((role) => role !== '**') : [];
  return names.map((name) => ({ [name]: [...roles] }));
}

/** The statuses the access rule can answer: 401 without an accepted credential, 403 for a caller it refuses. */
export function accessStatuses(rule: AccessRule | undefined, schemes: DocumentSchemes): string[] {
  return accessAnswers(rule, Object.keys(schemes).length > 0).map(String);
}
