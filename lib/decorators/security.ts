/** Who may call an endpoint: @Authenticated, @RolesAllowed, @PermitAll and @DenyAll; they only record metadata. */
import { metaKey } from '../metadata/store';
import { memberTag, type ClassOrMethodDecorator } from './decorator-types';

/** The method's wins over its class's. */
export type AccessRule =
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'roles'; readonly roles: readonly string[] }
  | { readonly kind: 'permit-all' }
  | { readonly kind: 'deny-all' };

export const ACCESS_RULE = metaKey<AccessRule>('access-rule');

/**
 * Only authenticated callers: anonymous requests answer 401 with `WWW-Authenticate`.
 *
 * @example
 * \@GET @Path('me') @Authenticated
 * me(security: SecurityContext) { return security.userPrincipal; }
 */
export const Authenticated: ClassOrMethodDecorator = memberTag(ACCESS_RULE, { kind: 'authenticated' });

/**
 * Only callers with one of `roles` (`'**'`: any authenticated caller): anonymous requests answer 401, others 403.
 *
 * @example
 * \@GET @Path('stats') @RolesAllowed('admin')
 * stats() { ... }
 */
export function RolesAllowed(...roles: string[]): ClassOrMethodDecorator {
  return memberTag(ACCESS_RULE, { kind: 'roles', roles });
}

/** Anyone may call, also when the class says otherwise. */
export const PermitAll: ClassOrMethodDecorator = memberTag(ACCESS_RULE, { kind: 'permit-all' });

/** Nobody may call: 403 for everyone (401 first for anonymous requests). */
export const DenyAll: ClassOrMethodDecorator = memberTag(ACCESS_RULE, { kind: 'deny-all' });
