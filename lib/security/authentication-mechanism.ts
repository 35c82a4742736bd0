/** How a credential in a request becomes an identity: the interface every mechanism implements. */
import type { RequestContext } from '../context/request-context';
import type { Identity } from './security-context';

/**
 * One way of proving who calls (a bearer token, an API key, Basic...). `authenticate` answers `undefined` when the
 * request carries no credential of its kind, an identity when it carries a good one, and throws
 * {@link CredentialRefused} when it carries one that is not accepted (expired, badly signed, unknown).
 *
 * @example
 * const mechanism: AuthenticationMechanism = {
 *   scheme: 'ApiKey',
 *   challenge: 'ApiKey',
 *   hasCredential: (ctx) => ctx.headerValue('x-api-key') !== null,
 *   authenticate: (ctx) => lookUp(ctx.headerValue('x-api-key')),
 * };
 */
export interface AuthenticationMechanism {
  /** What `SecurityContext.authenticationScheme` reports. */
  readonly scheme: string;
  /** The `WWW-Authenticate` challenge of a 401 (`Bearer`, `Basic realm="api"`). */
  readonly challenge: string;
  /**
   * How the OpenAPI document names the credential (a Security Scheme Object); without it, an HTTP authentication
   * scheme named `scheme` (`{ type: 'http', scheme: 'bearer' }` for `Bearer`).
   */
  readonly securityScheme?: SecurityScheme;
  /** Whether the request carries a credential of this kind (cheap: read on every request once a mechanism exists). */
  hasCredential(ctx: RequestContext): boolean;
  authenticate(ctx: RequestContext): Identity | undefined | Promise<Identity | undefined>;
}

/**
 * A credential that was presented and not accepted. Its message is for the logs only: the client gets a 401 that
 * says no more than RFC 6750 allows (`error="invalid_token"`).
 */
export class CredentialRefused extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CredentialRefused';
  }
}

/** An OpenAPI Security Scheme Object (OpenAPI 3.2 §4.8.27), as a mechanism describes its credential. */
export type SecurityScheme =
  | { readonly type: 'http'; readonly scheme: string; readonly bearerFormat?: string; readonly description?: string }
  | {
      readonly type: 'apiKey';
      readonly in: 'header' | 'query' | 'cookie';
      readonly name: string;
      readonly description?: string;
    }
  | { readonly type: 'openIdConnect'; readonly openIdConnectUrl: string; readonly description?: string }
  | { readonly type: 'mutualTLS'; readonly description?: string };
