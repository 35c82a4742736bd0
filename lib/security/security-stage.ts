/**
 * The per-request security step of an endpoint: find a credential, let its mechanism turn it into an identity,
 * then apply the endpoint's access rule. Runs after routing and before the request filters, so filters, the method
 * and exception mappers all see the `SecurityContext`.
 */
import type { Config } from '../config/config';
import type { AccessRule } from '../decorators/security';
import { problemDetails, type ErrorCode } from '../errors/problem-details';
import { ForbiddenException, NotAuthorizedException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import type { StageFn } from '../context/settle';
import type { RequestContext } from '../context/request-context';
import type { StageResult } from '../context/stage';
import { CredentialRefused, type AuthenticationMechanism, type SecurityScheme } from './authentication-mechanism';
import { jwtMechanism, jwtSettings } from './jwt-mechanism';
import { SecurityContext, setSecurityContext, type Identity } from './security-context';

const log = logging.getLogger('rxrest.security');

/**
 * What counts refused credentials (the rate limits' failed-authentication budget): it may answer a request that
 * carries a credential before the credential is checked, and instead of the 401 of one refused.
 */
export interface RefusalCounter {
  /** What answers at once, the credential unchecked (the client spent its budget); `undefined` to go on. */
  check(ctx: RequestContext): Error | undefined;
  /** Counts a refused credential; resolves to what answers instead of the 401, if anything. */
  count(ctx: RequestContext): Promise<Error | undefined>;
}

/** The application's authentication: its mechanisms, tried in order, and what streams do when a credential expires. */
export interface SecuritySettings {
  readonly mechanisms: readonly AuthenticationMechanism[];
  readonly endStreamsOnExpiry: boolean;
  readonly refusals?: RefusalCounter;
}

function unauthorized(
  mechanisms: readonly AuthenticationMechanism[],
  code: ErrorCode,
  detail: string,
  refused?: AuthenticationMechanism,
): NotAuthorizedException {
  // RFC 6750 §3.1: a refused token is `invalid_token`, and nothing more is said of why.
  const challenges = mechanisms.map((mechanism) =>
    mechanism === refused ? `${mechanism.challenge} error="invalid_token"` : mechanism.challenge,
  );
  return new NotAuthorizedException(detail, {
    headers: { 'www-authenticate': challenges.join(', ') },
    problem: problemDetails(code, detail),
  });
}

const FORBIDDEN_DETAIL = 'The caller may not use this endpoint';
const forbidden = () =>
  new ForbiddenException(FORBIDDEN_DETAIL, { problem: problemDetails('RXREST_FORBIDDEN', FORBIDDEN_DETAIL) });

/** The built-in bearer tokens, as the OpenAPI document names them. */
const BEARER_JWT: SecurityScheme = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };

/** Whether `rule` lets `security` in; throws the 401 or 403 that answers otherwise. */
function enforce(
  rule: AccessRule | undefined,
  security: SecurityContext,
  mechanisms: readonly AuthenticationMechanism[],
): void {
  if (rule === undefined || rule.kind === 'permit-all') return;
  if (!security.userPrincipal) {
    if (mechanisms.length === 0) throw forbidden();
    throw unauthorized(mechanisms, 'RXREST_UNAUTHORIZED', 'This endpoint needs authentication');
  }
  if (rule.kind === 'deny-all' || (rule.kind === 'roles' && !rule.roles.some((role) => security.isUserInRole(role))))
    throw forbidden();
}

/** A refused credential answers 401, or what the refusal counter answers once it is counted; other errors go on. */
function refuseCredential(
  ctx: RequestContext,
  mechanism: AuthenticationMechanism,
  error: unknown,
  { mechanisms, refusals }: SecuritySettings,
): Promise<never> | never {
  if (!(error instanceof CredentialRefused)) throw error;
  log.debug(`${mechanism.scheme} credential refused: ${error.message}`);
  const answer = unauthorized(mechanisms, 'RXREST_UNAUTHORIZED', 'The credential was not accepted', mechanism);
  if (!refusals) throw answer;
  return refusals.count(ctx).then((instead) => {
    throw instead ?? answer;
  });
}

/**
 * The security step of an endpoint with `rule` (`undefined`: open), or `undefined` when there is nothing to do on it
 * (no mechanism and no rule). With mechanisms, every request that carries a credential is authenticated, also on
 * open endpoints (a refused credential answers 401 there too, as a client that sent one expects to be told).
 */
export function securityStep(
  rule: AccessRule | undefined,
  settings: SecuritySettings | undefined,
): StageFn | undefined {
  const mechanisms = settings?.mechanisms ?? [];
  if (mechanisms.length === 0 && (rule === undefined || rule.kind === 'permit-all')) return undefined;
  const refusals = settings?.refusals;
  const admit = (
    ctx: RequestContext,
    mechanism: AuthenticationMechanism | undefined,
    identity: Identity | undefined,
  ): RequestContext => {
    const security = new SecurityContext(identity, mechanism?.scheme, ctx.url.startsWith('https:'));
    setSecurityContext(ctx, security);
    enforce(rule, security, mechanisms);
    return ctx;
  };
  return (ctx): StageResult<RequestContext> => {
    const mechanism = mechanisms.find((candidate) => candidate.hasCredential(ctx));
    // No credential on an open endpoint: nothing to record (`securityContext(ctx)` is anonymous when asked).
    if (!mechanism) return rule === undefined ? ctx : admit(ctx, undefined, undefined);
    const held = refusals?.check(ctx);
    if (held) throw held;
    let found: Identity | undefined | Promise<Identity | undefined>;
    try {
      found = mechanism.authenticate(ctx);
    } catch (error) {
      return refuseCredential(ctx, mechanism, error, settings!);
    }
    if (!(found instanceof Promise)) return admit(ctx, found ? mechanism : undefined, found);
    return found.then(
      (identity) => admit(ctx, identity ? mechanism : undefined, identity),
      (error: unknown) => refuseCredential(ctx, mechanism, error, settings!),
    );
  };
}

/**
 * The application's security settings: its own mechanisms, then bearer JWTs when `framework.security.jwt.*` names a
 * key source; `undefined` when there is none. jose is required only then. `refusals` counts refused credentials.
 */
export function securitySettings(
  config: Config,
  directory: string,
  own: readonly AuthenticationMechanism[] = [],
  refusals?: RefusalCounter,
): SecuritySettings | undefined {
  const jwt = jwtSettings(config);
  const mechanisms = jwt ? [...own, { ...jwtMechanism(jwt, directory), securityScheme: BEARER_JWT }] : own;
  if (mechanisms.length === 0) return undefined;
  return { mechanisms, endStreamsOnExpiry: config.get('framework.security.streams.end-on-expiry'), refusals };
}
