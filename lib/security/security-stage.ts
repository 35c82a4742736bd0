/** The security step: after routing, before the filters, so filters, method and mappers see the `SecurityContext`. */
import type { Config } from '../config/config';
import type { AccessRule } from '../decorators/security';
import { httpProblem } from '../errors/http-problem';
import { logging } from '../logging/logger';
import type { StageFn } from '../context/settle';
import type { RequestContext } from '../context/request-context';
import type { StageResult } from '../context/stage';
import { allows } from './access-answers';
import { CredentialRefused, type AuthenticationMechanism, type SecurityScheme } from './authentication-mechanism';
import { jwtMechanism, jwtSettings } from './jwt-mechanism';
import { SecurityContext, setSecurityContext, type Identity } from './security-context';

const log = logging.getLogger('rxrest.security');

/**
 * What counts refused credentials (the rate limits' budget): `check` may answer before a credential is checked (the
 * client spent its budget), `count` instead of the 401 of one refused.
 */
export interface RefusalCounter {
  check(ctx: RequestContext): Error | undefined;
  count(ctx: RequestContext): Promise<Error | undefined>;
}

/** The application's authentication: its mechanisms, tried in order. */
export interface SecuritySettings {
  readonly mechanisms: readonly AuthenticationMechanism[];
  readonly endStreamsOnExpiry: boolean;
  readonly refusals?: RefusalCounter;
}

function unauthorized(
  mechanisms: readonly AuthenticationMechanism[],
  detail: string,
  refused?: AuthenticationMechanism,
) {
  // RFC 6750 §3.1: a refused token is `invalid_token`, and nothing more is said of why.
  const challenges = mechanisms.map((mechanism) =>
    mechanism === refused ? `${mechanism.challenge} error="invalid_token"` : mechanism.challenge,
  );
  return httpProblem('RXREST_UNAUTHORIZED', detail, { headers: { 'www-authenticate': challenges.join(', ') } });
}

const BEARER_JWT: SecurityScheme = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };

/** Throws the 401 or 403 that answers a caller `rule` does not let in. */
function enforce(
  rule: AccessRule | undefined,
  security: SecurityContext,
  mechanisms: readonly AuthenticationMechanism[],
): void {
  if (allows(rule, security)) return;
  if (security.userPrincipal || mechanisms.length === 0)
    throw httpProblem('RXREST_FORBIDDEN', 'The caller may not use this endpoint');
  throw unauthorized(mechanisms, 'This endpoint needs authentication');
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
  const answer = unauthorized(mechanisms, 'The credential was not accepted', mechanism);
  if (!refusals) throw answer;
  return refusals.count(ctx).then((instead) => {
    throw instead ?? answer;
  });
}

/**
 * The security step of an endpoint with `rule` (`undefined`: open), or `undefined` with no mechanism and no rule. A
 * credential is authenticated on open endpoints too: a client that sent one expects to be told it was refused.
 */
export function securityStep(
  rule: AccessRule | undefined,
  settings: SecuritySettings | undefined,
): StageFn | undefined {
  const mechanisms = settings?.mechanisms ?? [];
  if (mechanisms.length === 0 && (rule === undefined || rule.kind === 'permit-all')) return undefined;
  const admit = (ctx: RequestContext, identity?: Identity, scheme?: string): RequestContext => {
    const security = new SecurityContext(identity, scheme, ctx.url.startsWith('https:'));
    setSecurityContext(ctx, security);
    enforce(rule, security, mechanisms);
    return ctx;
  };
  return (ctx): StageResult<RequestContext> => {
    const mechanism = mechanisms.find((candidate) => candidate.hasCredential(ctx));
    // No credential on an open endpoint: nothing to record (`securityContext(ctx)` is anonymous when asked).
    if (!mechanism) return rule === undefined ? ctx : admit(ctx);
    const held = settings?.refusals?.check(ctx);
    if (held) throw held;
    let found: Identity | undefined | Promise<Identity | undefined>;
    try {
      found = mechanism.authenticate(ctx);
    } catch (error) {
      return refuseCredential(ctx, mechanism, error, settings!);
    }
    if (!(found instanceof Promise)) return admit(ctx, found, mechanism.scheme);
    return found.then(
      (identity) => admit(ctx, identity, mechanism.scheme),
      (error: unknown) => refuseCredential(ctx, mechanism, error, settings!),
    );
  };
}

/** The application's own mechanisms, then bearer JWTs when `framework.security.jwt.*` names a key source. */
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
