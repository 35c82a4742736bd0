/**
 * A Web request (`app.fetch`) under the application's host rules: its host is its URL's, refused with a 400 problem
 * when not allowed, and its URL moved onto the public origin when one is configured. `listen()` applies the same
 * rules to Node's request before a context is made (`server/request-host.ts`).
 */
import { PROBLEM_JSON, problemDetails } from '../errors/problem-details';
import type { HostRules } from '../http/allowed-hosts';

/** `request` as it is served, or the 400 answer to it (with `X-Content-Type-Options: nosniff` when `nosniff`). */
export function hostedRequest(request: Request, rules: HostRules, nosniff: boolean): Request | Response {
  const url = new URL(request.url);
  if (rules.allows && !rules.allows(url.host)) {
    const problem = problemDetails('RXREST_INVALID_HOST', 'The request is for a host this server does not serve');
    return new Response(JSON.stringify(problem), {
      status: 400,
      headers: {
        'content-type': `${PROBLEM_JSON};charset=UTF-8`,
        ...(nosniff ? { 'x-content-type-options': 'nosniff' } : {}),
      },
    });
  }
  const origin = rules.public?.origin;
  if (origin === undefined || url.origin === origin) return request;
  const { method, headers, body, signal } = request;
  return new Request(`${origin}${url.pathname}${url.search}`, {
    method,
    headers,
    body,
    signal,
    duplex: 'half',
  } as RequestInit);
}
