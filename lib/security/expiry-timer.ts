/**
 * The one timer that ends what a credential opened when the credential expires: SSE, NDJSON and every other stream,
 * and WebSockets. It does not know what ending means for each; its caller says.
 */
import type { RequestContext } from '../context/request-context';
import { credentialExpiry } from './security-context';
import { MAX_TIMER_MS, unref } from '../runtime/timers';

/**
 * Calls `expire` once at `expiresAt` (milliseconds since the epoch), soon after when that is past, and never for an
 * expiry too far for any clock (`exp: 1e15`); a wait longer than a timer holds is taken in steps. Returns the cancel.
 * The timer is unref'd: an expiry to come never keeps the process alive.
 */
export function expiryTimer(expiresAt: number, expire: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const wait = () => {
    const left = expiresAt - Date.now();
    // NaN (no valid expiry) ends at once, as a past one does.
    timer = setTimeout(check, left > 0 ? Math.min(left, MAX_TIMER_MS) : 0);
    unref(timer);
  };
  const check = () => (Date.now() < expiresAt ? wait() : expire());
  wait();
  return () => clearTimeout(timer);
}

/** Calls `expire` when the credential that authenticated `ctx` expires; `undefined` when it does not expire. */
export function whenCredentialExpires(ctx: RequestContext, expire: () => void): (() => void) | undefined {
  const expiresAt = credentialExpiry(ctx);
  return expiresAt === undefined ? undefined : expiryTimer(expiresAt, expire);
}
