/**
 * Bearer JWTs (RFC 6750, RFC 7519) verified with `jose`: keys from a JWKS URL (cached, fetched again for an unknown
 * `kid`, at most every `jwks-refresh-interval`) or a PEM public key; `exp` required, `nbf`, `iss` and `aud` checked, asymmetric algorithms
 * only unless configured. jose is loaded when a JWT setting is first read, so applications without it never load it.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/config';
import { ConfigError } from '../config/config-error';
import type { RequestContext } from '../pipeline/request-context';
import { CredentialRefused, type AuthenticationMechanism } from './authentication-mechanism';
import type { Identity } from './security-context';

type Jose = typeof import('jose');
type Verify = (token: string) => Promise<Record<string, unknown>>;

/** What a JWT mechanism checks, from `framework.security.jwt.*`. */
export interface JwtSettings {
  readonly jwksUrl?: string;
  /** How often at most an unknown `kid` fetches the JWKS again. */
  readonly jwksRefreshMs: number;
  readonly publicKeyFile?: string;
  readonly issuer?: string;
  readonly audience?: readonly string[];
  readonly rolesClaim: string;
  readonly clockSkewMs: number;
  readonly algorithms: readonly string[];
}

/** The JWT settings of `config`, or `undefined` when no key source is configured. */
export function jwtSettings(config: Config): JwtSettings | undefined {
  const jwksUrl = config.get('framework.security.jwt.jwks-url');
  const publicKeyFile = config.get('framework.security.jwt.public-key-file');
  if (jwksUrl === undefined && publicKeyFile === undefined) return undefined;
  return {
    jwksUrl,
    jwksRefreshMs: config.get('framework.security.jwt.jwks-refresh-interval'),
    publicKeyFile,
    issuer: config.get('framework.security.jwt.issuer'),
    audience: config.get('framework.security.jwt.audience'),
    rolesClaim: config.get('framework.security.jwt.roles-claim'),
    clockSkewMs: config.get('framework.security.jwt.clock-skew'),
    algorithms: config.get('framework.security.jwt.algorithms'),
  };
}

function problem(key: string, value: string, expected: string): ConfigError {
  return new ConfigError([{ key, value, source: 'configuration', expected }]);
}

/** The public key of a PEM file (SPKI public key or X.509 certificate), read at build so a bad file stops the start. */
function readPublicKey(file: string, directory: string): KeyObject {
  const path = resolve(directory, file);
  try {
    return createPublicKey(readFileSync(path));
  } catch (error) {
    throw problem(
      'framework.security.jwt.public-key-file',
      path,
      `a readable PEM public key or certificate (${(error as Error).message})`,
    );
  }
}

/** The value at a dotted path of the claims (`realm_access.roles`), or the claim of that exact name. */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (path in claims) return claims[path];
  let value: unknown = claims;
  for (const part of path.split('.'))
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

function rolesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((role): role is string => typeof role === 'string');
  return typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : [];
}

const BEARER = /^bearer +(\S+)\s*$/i;

/** How many verified tokens are remembered; when full the memory is cleared (a flood of tokens costs no more than none). */
const VERIFIED_LIMIT = 10_000;
/** How long a verified token is taken on trust before its signature is checked again (a key removed from the JWKS counts within this). */
const VERIFIED_FOR_MS = 60_000;

/**
 * The bearer-JWT mechanism for `settings`. Keys: a JWKS fetched when the first token comes (jose's remote key set:
 * cached, fetched again for an unknown `kid` at most every `jwks-refresh-interval`, so a flood of made-up `kid`s costs
 * one fetch), or the public key file read now.
 */
export function jwtMechanism(settings: JwtSettings, directory: string): AuthenticationMechanism {
  // A JWKS wins over a key file, so an environment's JWKS URL overrides a file named in application.properties.
  const publicKey =
    settings.publicKeyFile === undefined || settings.jwksUrl !== undefined
      ? undefined
      : readPublicKey(settings.publicKeyFile, directory);
  if (settings.jwksUrl !== undefined && !URL.canParse(settings.jwksUrl))
    throw problem('framework.security.jwt.jwks-url', settings.jwksUrl, 'an http(s) URL');
  const options = {
    algorithms: [...settings.algorithms],
    issuer: settings.issuer,
    audience: settings.audience === undefined ? undefined : [...settings.audience],
    clockTolerance: Math.round(settings.clockSkewMs / 1000),
    requiredClaims: ['exp'],
  };
  let verify: Verify | undefined;
  const verifier = (): Verify => {
    if (verify) return verify;
    const jose = require('jose') as Jose;
    if (publicKey) return (verify = async (token) => (await jose.jwtVerify(token, publicKey, options)).payload);
    const keys = jose.createRemoteJWKSet(new URL(settings.jwksUrl!), {
      cooldownDuration: settings.jwksRefreshMs,
      cacheMaxAge: 10 * 60_000,
    });
    return (verify = async (token) => (await jose.jwtVerify(token, keys, options)).payload);
  };
  // A client sends the same token with every request until it expires: its signature (about 100 µs of ECDSA or RSA
  // work) is checked once, then the identity is reused until the token expires or a minute has passed.
  const verified = new Map<string, { readonly identity: Identity; readonly until: number }>();
  const identityOf = (claims: Record<string, unknown>): Identity => {
    const name =
      [claims.sub, claims.upn, claims.preferred_username].find((value): value is string => typeof value === 'string') ??
      '';
    return {
      principal: { name, claims },
      roles: rolesOf(claimAt(claims, settings.rolesClaim)),
      expiresAt: (claims.exp as number) * 1000,
    };
  };
  const check = async (token: string): Promise<Identity> => {
    let claims: Record<string, unknown>;
    try {
      claims = await verifier()(token);
    } catch (error) {
      throw new CredentialRefused(`token refused: ${(error as Error).message}`, { cause: error });
    }
    const identity = identityOf(claims);
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
