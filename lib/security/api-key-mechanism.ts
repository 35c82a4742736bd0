/** A simple mechanism shipped beside JWT: API keys in a header, each standing for a caller with roles. */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { RequestContext } from '../context/request-context';
import { CredentialRefused, type AuthenticationMechanism } from './authentication-mechanism';
import type { Identity } from './security-context';

const nodeCrypto = () => nodeBuiltin('node:crypto', 'API keys (framework.security.api-key)');

export interface ApiKeyOptions {
  /** The header carrying the key (default `X-API-Key`). */
  readonly header?: string;
  /** Each key and who it stands for. */
  readonly keys: Readonly<Record<string, { readonly name: string; readonly roles?: readonly string[] }>>;
}

const digest = (text: string) => nodeCrypto().createHash('sha256').update(text).digest();

/**
 * Authenticates requests by an API key header. Keys are compared by their SHA-256 digests in constant time, so the
 * time an answer takes says nothing of how much of a key was right.
 *
 * @example
 * RestApplication.build({ classes, authentication: [apiKeys({ keys: { [process.env.OPS_KEY!]: { name: 'ops', roles: ['admin'] } } })] });
 */
export function apiKeys(options: ApiKeyOptions): AuthenticationMechanism {
  const header = (options.header ?? 'X-API-Key').toLowerCase();
  const known = Object.entries(options.keys).map(([key, owner]) => ({ digest: digest(key), owner }));
  return {
    scheme: 'ApiKey',
    challenge: `ApiKey header="${options.header ?? 'X-API-Key'}"`,
    securityScheme: { type: 'apiKey', in: 'header', name: options.header ?? 'X-API-Key' },
    hasCredential: (ctx: RequestContext) => ctx.headerValue(header) !== null,
    authenticate(ctx: RequestContext): Identity {
      const presented = digest(ctx.headerValue(header) ?? '');
      const match = known.find((entry) => nodeCrypto().timingSafeEqual(entry.digest, presented));
      if (!match) throw new CredentialRefused('unknown API key');
      return { principal: { name: match.owner.name, claims: {} }, roles: [...(match.owner.roles ?? [])] };
    },
  };
}
