/** Bearer JWTs (RFC 6750, RFC 7519) verified with `jose` (loaded with the first token), keys from a JWKS or a file. */
import { loadPackage } from '../runtime/load-package';
import { nodeBuiltin } from '../runtime/node-builtins';
import type { KeyObject } from 'node:crypto';
import type { Config } from '../config/config';
import { settingError } from '../config/config-error';
import { logging } from '../logging/logger';
import type { RequestContext } from '../context/request-context';
import { CredentialRefused, type AuthenticationMechanism } from './authentication-mechanism';
import type { Identity } from './security-context';
import { jwksKeys } from './jwks-keys';
import { WebApplicationException } from '../errors/web-application-exception';

const log = logging.getLogger('rxrest.security');

type Verify = (token: string) => Promise<Record<string, unknown>>;

type JwtSettings = NonNullable<ReturnType<typeof jwtSettings>>;

/** Tokens are admitted that long past their `exp`: a skew of days would make expiry meaningless. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** `undefined` when no key source is configured. */
export function jwtSettings(config: Config) {
  const jwksUrl = config.get('framework.security.jwt.jwks-url');
  const publicKeyFile = config.get('framework.security.jwt.public-key-file');
  if (jwksUrl === undefined && publicKeyFile === undefined) return undefined;
  const clockSkewMs = config.get('framework.security.jwt.clock-skew');
  if (clockSkewMs > MAX_CLOCK_SKEW_MS)
    throw settingError(
      'framework.security.jwt.clock-skew',
      config.getUser('framework.security.jwt.clock-skew') ?? `${clockSkewMs}ms`,
      'a duration of at most 5m (tokens are admitted that long past their exp)',
    );
  return {
    jwksUrl,
    jwksRefreshMs: config.get('framework.security.jwt.jwks-refresh-interval'),
    jwksMaxStaleMs: config.get('framework.security.jwt.jwks-max-stale'),
    publicKeyFile,
    issuer: config.get('framework.security.jwt.issuer'),
    audience: config.get('framework.security.jwt.audience'),
    rolesClaim: config.get('framework.security.jwt.roles-claim'),
    rolesDelimited: config.get('framework.security.jwt.roles-claim-delimited'),
    clockSkewMs,
    algorithms: config.get('framework.security.jwt.algorithms'),
  };
}

/** Read at build, so a bad file stops the start. */
function readPublicKey(file: string, directory: string): KeyObject {
  const why = 'framework.security.jwt keys read from files';
  const path = nodeBuiltin('node:path', why).resolve(directory, file);
  try {
    return nodeBuiltin('node:crypto', why).createPublicKey(nodeBuiltin('node:fs', why).readFileSync(path));
  } catch (error) {
    throw settingError(
      'framework.security.jwt.public-key-file',
      path,
      `a readable PEM public key or certificate (${(error as Error).message})`,
    );
  }
}

/** A claim the object holds itself: nothing is read from a prototype, however polluted. */
function own(holder: unknown, name: string): unknown {
  return holder !== null && typeof holder === 'object' && Object.hasOwn(holder, name)
    ? (holder as Record<string, unknown>)[name]
    : undefined;
}

/** The claim at a dotted path (`realm_access.roles`), or of that exact name. */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  return Object.hasOwn(claims, path) ? claims[path] : path.split('.').reduce<unknown>(own, claims);
}

/** An array's strings; a string as one role, or split on spaces when `delimited` (as OAuth's `scope`). */
function rolesOf(value: unknown, delimited: boolean): string[] {
  if (Array.isArray(value)) return value.filter((role): role is string => typeof role === 'string');
  if (typeof value !== 'string' || value === '') return [];
  return delimited ? value.split(/\s+/).filter(Boolean) : [value];
}

function subjectOf(claims: Record<string, unknown>): string {
  for (const claim of ['sub', 'upn', 'preferred_username']) {
    const name = own(claims, claim);
    if (typeof name === 'string' && name !== '') return name;
  }
  // Admitted, every such caller would be one principal "" (one rate-limit bucket, one owner of every resource).
  throw new CredentialRefused('token refused: it names no subject (sub, upn or preferred_username)');
}

const BEARER = /^bearer +(\S+)\s*$/i;

/** When full, the memory is cleared: a flood of tokens costs no more than none. */
const VERIFIED_LIMIT = 10_000;
/** A key removed from the JWKS still admits the tokens it verified for this long. */
const VERIFIED_FOR_MS = 60_000;

/** The verifier of `settings`' tokens, made when the first token comes (the key file is read now). */
function verifierOf(settings: JwtSettings, directory: string): () => Verify {
  // A JWKS wins over a key file, so an environment's JWKS URL overrides a file named in application.properties.
  const publicKey =
    settings.publicKeyFile === undefined || settings.jwksUrl !== undefined
      ? undefined
      : readPublicKey(settings.publicKeyFile, directory);
  if (settings.jwksUrl !== undefined && !URL.canParse(settings.jwksUrl))
    throw settingError('framework.security.jwt.jwks-url', settings.jwksUrl, 'an http(s) URL');
  const options = {
    algorithms: [...settings.algorithms],
    issuer: settings.issuer,
    audience: settings.audience === undefined ? undefined : [...settings.audience],
    clockTolerance: Math.round(settings.clockSkewMs / 1000),
    requiredClaims: ['exp'],
  };
  let verify: Verify | undefined;
  return () => {
    if (verify) return verify;
    const jose = loadPackage<typeof import('jose')>('jose');
    if (publicKey) return (verify = async (token) => (await jose.jwtVerify(token, publicKey, options)).payload);
    const keys = jwksKeys(jose, settings.jwksUrl!, settings.jwksRefreshMs, settings.jwksMaxStaleMs);
    return (verify = async (token) => (await jose.jwtVerify(token, keys, options)).payload);
  };
}

function identityOf(claims: Record<string, unknown>, settings: JwtSettings): Identity {
  // jose checks `iat` only against a maximum age; a token "issued" later than now is refused here.
  const issuedAt = own(claims, 'iat');
  if (typeof issuedAt === 'number' && issuedAt * 1000 > Date.now() + settings.clockSkewMs)
    throw new CredentialRefused('token refused: its iat is in the future, beyond the clock skew');
  return {
    principal: { name: subjectOf(claims), claims },
    roles: rolesOf(claimAt(claims, settings.rolesClaim), settings.rolesDelimited),
    expiresAt: (own(claims, 'exp') as number) * 1000,
  };
}

export function jwtMechanism(settings: JwtSettings, directory: string): AuthenticationMechanism {
  const verifier = verifierOf(settings, directory);
  if (settings.audience === undefined)
    log.warn(
      'framework.security.jwt.audience is not set: a token its issuer made for any other API is admitted here too; set it to the aud of this API',
    );
  // A client sends the same token with every request: its signature (~100 µs of ECDSA or RSA) is checked once.
  const verified = new Map<string, { readonly identity: Identity; readonly until: number }>();
  const check = async (token: string): Promise<Identity> => {
    let claims: Record<string, unknown>;
    try {
      claims = await verifier()(token);
    } catch (error) {
      // The keys cannot be read (503): the provider's failure, not a refused token.
      if (error instanceof WebApplicationException) throw error;
      throw new CredentialRefused(`token refused: ${(error as Error).message}`, { cause: error });
    }
    const identity = identityOf(claims, settings);
    if (verified.size >= VERIFIED_LIMIT) verified.clear();
    verified.set(token, {
      identity,
      until: Math.min(identity.expiresAt! + settings.clockSkewMs, Date.now() + VERIFIED_FOR_MS),
    });
    return identity;
  };
  return {
    scheme: 'Bearer',
    challenge: 'Bearer',
    hasCredential: (ctx: RequestContext) => /^bearer /i.test(ctx.headerValue('authorization') ?? ''),
    authenticate(ctx: RequestContext): Identity | Promise<Identity> {
      const token = BEARER.exec(ctx.headerValue('authorization') ?? '')?.[1];
      if (token === undefined) throw new CredentialRefused('the Authorization header is not "Bearer <token>"');
      const known = verified.get(token);
      if (known && Date.now() < known.until) return known.identity;
      if (known) verified.delete(token);
      return check(token);
    },
  };
}
