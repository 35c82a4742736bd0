/** Security in the document: the mechanisms as Security Scheme Objects, each operation's requirement from its rule. */
import type { AccessRule } from '../decorators/security';
import { accessAnswers, needsCaller } from '../security/access-answers';
import type { AuthenticationMechanism, SecurityScheme } from '../security/authentication-mechanism';

export type DocumentSchemes = Readonly<Record<string, SecurityScheme>>;

/** Named after their scheme (`Bearer`): characters a component name cannot hold become `_`, a repeat a number. */
export function securitySchemes(mechanisms: readonly AuthenticationMechanism[]): DocumentSchemes {
  const schemes: Record<string, SecurityScheme> = {};
  for (const mechanism of mechanisms) {
    const base = mechanism.scheme.replace(/[^A-Za-z0-9._-]/g, '_') || 'scheme';
    let name = base;
    for (let n = 2; name in schemes; n++) name = `${base}_${n}`;
    schemes[name] = mechanism.securityScheme ?? { type: 'http', scheme: mechanism.scheme.toLowerCase() };
  }
  return schemes;
}

/** Any one scheme, with the roles (OpenAPI 3.1+ lets a non-OAuth requirement list them); `[]` for an open one. */
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

export function accessStatuses(rule: AccessRule | undefined, schemes: DocumentSchemes): string[] {
  return accessAnswers(rule, Object.keys(schemes).length > 0).map(String);
}
