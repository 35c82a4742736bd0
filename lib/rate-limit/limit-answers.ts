/** What a limit says: the `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers), the 429 with `Retry-After`. */
import { problemDetails, type ErrorCode } from '../errors/problem-details';
import { WebApplicationException } from '../errors/web-application-exception';

/** One policy of the IETF headers, its `RateLimit-Policy` value made once. */
export interface Policy {
  readonly name: string;
  readonly declared: string;
}

export function policyOf(name: string, quota: number, windowSeconds?: number): Policy {
  return { name, declared: `"${name}";q=${quota}${windowSeconds === undefined ? '' : `;w=${windowSeconds}`}` };
}

export function headersOf(policy: Policy, remaining: number, resetSeconds: number): Record<string, string> {
  return { 'ratelimit-policy': policy.declared, ratelimit: `"${policy.name}";r=${remaining};t=${resetSeconds}` };
}

/** A refusal problem with `Retry-After` (and `headers`), to try again in `retryAfter` seconds. */
export function refusal(
  status: 429 | 503,
  code: ErrorCode,
  retryAfter: number,
  detail: string,
  headers: Record<string, string> = {},
): WebApplicationException {
  return new WebApplicationException(detail, status, {
    headers: { ...headers, 'retry-after': String(retryAfter) },
    problem: problemDetails(code, detail),
  });
}

export function tooMany(policy: Policy, retryAfter: number, detail: string): WebApplicationException {
  return refusal(429, 'RXREST_RATE_LIMITED', retryAfter, detail, headersOf(policy, 0, retryAfter));
}

/** The whole seconds, at least one, until a window that ends in `ms` resets. */
export const secondsUntil = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
