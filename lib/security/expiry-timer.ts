/** The one timer that ends what a credential opened (streams, WebSockets) when it expires; its caller says how. */
import type { RequestContext } from '../context/request-context';
import { credentialExpiry } from './security-context';
import { MAX_TIMER_MS, unref } from '../runtime/timers';

/** A wait longer than a timer holds is taken in steps (`exp: 1e15` never comes); unref'd. Returns the cancel. */
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

/** `expiryTimer` of the credential that authenticated `ctx`; `undefined` when it does not expire. */
export function whenCredentialExpires(ctx: RequestContext, expire: () => void): (() => void) | undefined {
  const expiresAt = credentialExpiry(ctx);
  return expiresAt === undefined ? undefined : expiryTimer(expiresAt, expire);
}
