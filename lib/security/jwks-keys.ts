/**
 * The keys of a JWKS URL for jose's verification. A key set that cannot be read (the provider down or slow, a body that
 * is no key set or past 1 MiB) is the provider's failure, not the token's: the keys last read go on verifying for at
 * most `maxStaleMs` (so an attacker cutting the way to the provider cannot keep a removed key alive), else 503; the
 * provider is asked again only after a refresh interval, so no stream of made-up `kid`s makes every request ask it.
 */
import type { FetchImplementation, JWTVerifyGetKey } from 'jose';
import { httpProblem } from '../errors/http-problem';
import { logging } from '../logging/logger';
import { utf8Text } from '../runtime/bytes';
import { readAtMost } from '../runtime/read-at-most';

type Jose = typeof import('jose');

const log = logging.getLogger('rxrest.security');

/** A provider's key set holds a few keys, a few KB; a larger body is a fault, not read on. */
const MAX_JWKS_BYTES = 1024 * 1024;
const CACHE_MS = 10 * 60_000;

/** The key set could not be read: raised by the fetch jose is given, so nothing a token does can raise it. */
class JwksUnreadable extends Error {}

const unreadable = (why: string, cause?: unknown) => new JwksUnreadable(why, { cause });

function isKeySet(value: unknown): boolean {
  const keys = (value as { keys?: unknown } | null)?.keys;
  return Array.isArray(keys) && keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key));
}

/** jose's fetch of the key set, every failure a {@link JwksUnreadable}, its body bounded. */
const readKeySet =
  (read: () => void): FetchImplementation =>
  async (url, init) => {
    const response = await fetch(url, init).catch((error: unknown) => {
      throw unreadable(`the request failed (${(error as Error).message})`, error);
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      throw unreadable(`it answered ${response.status}`);
    }
    const bytes = response.body
      ? await readAtMost(
          response.body,
          MAX_JWKS_BYTES,
          () => unreadable('it is larger than 1 MiB'),
          (error) => {
            throw unreadable(`reading it failed (${(error as Error).message})`, error);
          },
        )
      : new Uint8Array(0);
    let keySet: unknown;
    try {
      keySet = JSON.parse(utf8Text(bytes));
    } catch (error) {
      throw unreadable('it is not JSON', error);
    }
    if (!isKeySet(keySet)) throw unreadable('it holds no "keys" array of keys');
    read();
    return new Response(bytes, { status: 200, headers: { 'content-type': 'application/json' } });
  };

function keysUnavailable(retryAt: number): Error {
  const seconds = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
  return httpProblem('RXREST_KEYS_UNAVAILABLE', 'The keys that verify tokens cannot be read at the moment', {
    headers: { 'retry-after': String(seconds) },
  });
}

export function jwksKeys(jose: Jose, url: string, refreshMs: number, maxStaleMs: number): JWTVerifyGetKey {
  let generation = 0;
  let readAt = 0;
  const remote = jose.createRemoteJWKSet(new URL(url), {
    cooldownDuration: refreshMs,
    cacheMaxAge: CACHE_MS,
    [jose.customFetch]: readKeySet(() => {
      generation++;
      readAt = Date.now();
    }),
  });
  let pausedUntil = 0;
  let last: { generation: number; resolve: JWTVerifyGetKey } | undefined;
  const fromLastRead: JWTVerifyGetKey = async (header, token) => {
    const keySet = remote.jwks();
    if (keySet === undefined || Date.now() - readAt > maxStaleMs) throw keysUnavailable(pausedUntil);
    if (last?.generation !== generation) last = { generation, resolve: jose.createLocalJWKSet(keySet) };
    try {
      return await last.resolve(header, token);
    } catch (error) {
      // A kid the keys last read lack may be a key rotated in that could not be fetched: not the token's fault yet.
      if (error instanceof jose.errors.JWKSNoMatchingKey) throw keysUnavailable(pausedUntil);
      throw error;
    }
  };
  return async (header, token) => {
    if (Date.now() < pausedUntil) return fromLastRead(header, token);
    try {
      return await remote(header, token);
    } catch (error) {
      if (!(error instanceof JwksUnreadable)) throw error;
      pausedUntil = Date.now() + refreshMs;
      log.warn(
        `The JWKS at ${url} cannot be read: ${error.message}. The keys last read verify tokens meanwhile; asked again in ${refreshMs} ms`,
      );
      return fromLastRead(header, token);
    }
  };
}
