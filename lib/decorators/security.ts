/** Who may call an endpoint: @Authenticated, @RolesAllowed, @PermitAll and @DenyAll; they only record metadata. */
import { metaKey } from '../metadata/store';
import { memberMeta, type ClassOrMethodDecorator } from './decorator-types';

/** The access rule of a class or method; the method's wins over its class's. */
export type AccessRule =
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'roles'; readonly roles: readonly string[] }
  | { readonly kind: 'permit-all' }
  | { readonly kind: 'deny-all' };

export const ACCESS_RULE = metaKey<AccessRule>('access-rule');

function rule(value: AccessRule): ClassOrMethodDecorator {
  return (target, propertyKey) => memberMeta(target, propertyKey).tags.set(ACCESS_RULE, value);
}

/**
 * Only authenticated callers: anonymous requests answer 401 with `WWW-Authenticate`.
 *
 * @example
 * \@GET @Path('me') @Authenticated
 * me(security: SecurityContext) { return security.userPrincipal; }
 */
export const Authenticated: ClassOrMethodDecorator = rule({ kind: 'authenticated' });

/**
 * Only callers with one of `roles` (`'**'`: any authenticated caller): anonymous requests answer 401, others 403.
 *
 * @example
 * \@GET @Path('stats') @RolesAllowed('admin')
 * stats() { ... }
 */
export function RolesAllowed(...roles: string[]): ClassOrMethodDecorator {
  return rule({ kind: 'roles', roles });
}

/** Anyone may call, also when the class says otherwise. */
export const PermitAll: ClassOrMethodDecorator = rule({ kind: 'permit-all' });

/** Nobody may call: 403 for everyone (401 first for anonymous requests). */
export const DenyAll: ClassOrMethodDecorator = rule({ kind: 'deny-all' });
