/** API keys in a header, each standing for a caller with roles. */
import { maybeNodeBuiltin } from '../runtime/node-builtins';
import { utf8Bytes } from '../runtime/bytes';
import type { RequestContext } from '../context/request-context';
import { CredentialRefused, type AuthenticationMechanism } from './authentication-mechanism';
import type { Identity } from './security-context';

export interface ApiKeyOptions {
  /** The header carrying the key (default `X-API-Key`). */
  readonly header?: string;
  /** Each key and who it stands for. */
  readonly keys: Readonly<Record<string, { readonly name: string; readonly roles?: readonly string[] }>>;
}

/** SHA-256 of `text`: at once through node:crypto where there is one, else through Web Crypto (a Worker). */
function digest(text: string): Uint8Array | Promise<Uint8Array> {
  const nodeCrypto = maybeNodeBuiltin('node:crypto');
  if (nodeCrypto) return nodeCrypto.createHash('sha256').update(text).digest();
  return crypto.subtle.digest('SHA-256', utf8Bytes(text)).then((hash) => new Uint8Array(hash));
}

/** Compares every byte whatever the first difference. */
function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.byteLength ^ b.byteLength;
  for (let at = 0; at < a.byteLength; at++) difference |= a[at]! ^ (b[at] ?? 0);
  return difference === 0;
}

/** Keys read from an environment that lacks them ("", "undefined", "null"): a stranger sends those as easily. */
function refuseUnsetKeys(keys: ApiKeyOptions['keys']): void {
  for (const [key, owner] of Object.entries(keys))
    if (key.trim() === '' || key === 'undefined' || key === 'null')
      throw new TypeError(
        `apiKeys: the key of "${owner.name}" is empty or unset (an environment variable without a value?): a stranger could send it`,
      );
}

/**
 * Authenticates requests by an API key header. Keys are compared by their SHA-256 digests, every byte of them, so the
 * time an answer takes says nothing of how much of a key was right.
 *
 * @example
 * RestApplication.build({ classes, authentication: [apiKeys({ keys: { [process.env.OPS_KEY!]: { name: 'ops', roles: ['admin'] } } })] });
 */
export function apiKeys(options: ApiKeyOptions): AuthenticationMechanism {
  refuseUnsetKeys(options.keys);
  const header = (options.header ?? 'X-API-Key').toLowerCase();
  const owners = Object.values(options.keys);
  const digests = Object.keys(options.keys).map(digest);
  const identify = (known: readonly Uint8Array[], presented: Uint8Array): Identity => {
    const owner = owners[known.findIndex((entry) => sameDigest(entry, presented))];
    if (!owner) throw new CredentialRefused('unknown API key');
    return { principal: { name: owner.name, claims: {} }, roles: [...(owner.roles ?? [])] };
  };
  return {
    scheme: 'ApiKey',
    challenge: `ApiKey header="${options.header ?? 'X-API-Key'}"`,
    securityScheme: { type: 'apiKey', in: 'header', name: options.header ?? 'X-API-Key' },
    hasCredential: (ctx: RequestContext) => ctx.headerValue(header) !== null,
    authenticate(ctx: RequestContext): Identity | Promise<Identity> {
      const presented = digest(ctx.headerValue(header) ?? '');
      // One runtime digests every key the same way: all at once, or all as promises.
      if (!(presented instanceof Promise)) return identify(digests as Uint8Array[], presented);
      return Promise.all([Promise.all(digests), presented]).then(([known, mine]) => identify(known, mine));
    },
  };
}
