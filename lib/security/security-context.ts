/** Who is calling: the principal and roles an authentication mechanism found, as filters, handlers and mappers read them. */
import type { RequestContext } from '../context/request-context';
import { registerContextType } from '../params/context-types';
import { ContextKey } from '../context/context-key';

/** The caller, named by its credential (a token's `sub`, an API key's owner). */
export interface Principal {
  readonly name: string;
  /** Everything the credential said of the caller (a token's claims). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** What an authentication mechanism found in a request. */
export interface Identity {
  readonly principal: Principal;
  readonly roles: readonly string[];
  /** When the credential stops being valid, in milliseconds since the epoch; streams it opened end then. */
  readonly expiresAt?: number;
}

/**
 * The security facts of one request: inject it as a parameter (`ctx: SecurityContext`, by type, with `SecurityContext`
 * imported as a value), or read `securityContext(ctx)` in a filter or an exception mapper. Anonymous until a
 * mechanism found a credential.
 *
 * @example
 * \@GET @Path('me') @Authenticated
 * me(security: SecurityContext) { return { name: security.userPrincipal?.name }; }
 */
export class SecurityContext {
  readonly #identity: Identity | undefined;
  readonly #scheme: string | undefined;
  readonly #secure: boolean;

  constructor(identity: Identity | undefined, scheme: string | undefined, secure: boolean) {
    this.#identity = identity;
    this.#scheme = identity ? scheme : undefined;
    this.#secure = secure;
  }

  /** The caller, or `undefined` for an anonymous request. */
  get userPrincipal(): Principal | undefined {
    return this.#identity?.principal;
  }

  /** Whether the caller has `role`; `'**'` is any authenticated caller. */
  isUserInRole(role: string): boolean {
    if (!this.#identity) return false;
    return role === '**' || this.#identity.roles.includes(role);
  }

  /** The caller's roles (empty when anonymous). */
  get roles(): readonly string[] {
    return this.#identity?.roles ?? [];
  }

  /** Whether the request came over HTTPS. */
  get isSecure(): boolean {
    return this.#secure;
  }

  /** The scheme of the mechanism that authenticated the caller (`Bearer`, `ApiKey`...), `undefined` when anonymous. */
  get authenticationScheme(): string | undefined {
    return this.#scheme;
  }

  /** When the caller's credential expires (milliseconds since the epoch), if it does. */
  get expiresAt(): number | undefined {
    return this.#identity?.expiresAt;
  }
}

const SECURITY = new ContextKey<SecurityContext>('security-context');

export function setSecurityContext(ctx: RequestContext, security: SecurityContext): void {
  ctx.set(SECURITY, security);
}

/** The security facts of `ctx`: anonymous when nothing authenticated it. */
export function securityContext(ctx: RequestContext): SecurityContext {
  return ctx.get(SECURITY) ?? new SecurityContext(undefined, undefined, ctx.url.startsWith('https:'));
}

export function credentialExpiry(ctx: RequestContext): number | undefined {
  return ctx.get(SECURITY)?.expiresAt;
}

/** The name of the caller `ctx` was authenticated as (no anonymous context is made to tell). */
export function principalName(ctx: RequestContext): string | undefined {
  return ctx.get(SECURITY)?.userPrincipal?.name;
}

registerContextType(SecurityContext, securityContext);
