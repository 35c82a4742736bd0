/** The URL Bun's and Deno's servers made of a request, checked as `listen()` checks `Host` and target. */
import { PROBLEM_JSON, problemDetails } from '../errors/problem-details';
import { isPlainHost, requestUrl, RequestTargetError } from '../http/request-target';
import { currentRuntime, type Runtime } from '../runtime/runtime-name';

export type Fetch = (request: Request, environment?: unknown, executionCtx?: unknown) => Response | Promise<Response>;

/**
 * In the words `listen()` answers with. Bun hands over the bare target when the `Host` makes no URL, and Deno puts the
 * `Host` before the target as it came: on Deno `GET /nowhere` with `Host: x/fruits#` was served as `/fruits`.
 */
export function unservedUrlReason(request: Request, runtime: Runtime): string | undefined {
  const url = request.url;
  const start = url.startsWith('http://') ? 7 : url.startsWith('https://') ? 8 : -1;
  if (start < 0) return 'Invalid host header';
  // On Deno, a URL not beginning with the Host (an absolute-form target, a Request made in process, a Host Deno
  // replaced) is the URL parser's, and its own authority is checked.
  const host = runtime === 'deno' ? request.headers.get('host') : null;
  const authority = host !== null && url.startsWith(host, start) ? host : authorityOf(url, start);
  if (isPlainHost(authority)) return undefined;
  try {
    requestUrl(start === 7 ? 'http' : 'https', authority, url.slice(start + authority.length));
    return undefined;
  } catch (error) {
    if (error instanceof RequestTargetError) return error.message;
    throw error;
  }
}

/** A runtime's URL always has a path. */
function authorityOf(url: string, start: number): string {
  const slash = url.indexOf('/', start);
  return slash < 0 ? url.slice(start) : url.slice(start, slash);
}

/** `http://host/` when the host is plain (the verdict on it depends on nothing else); else `''`. */
function plainOrigin(url: string): string {
  const start = url.indexOf('://') + 3;
  const authority = authorityOf(url, start);
  const end = start + authority.length;
  return url.charCodeAt(end) === 47 && isPlainHost(authority) ? url.slice(0, end + 1) : '';
}

/** On Bun or Deno, a request whose URL is not its client's is refused as `listen()` refuses it. */
export function servedUrlGuard(fetch: Fetch, nosniff: boolean, runtime: Runtime = currentRuntime()): Fetch {
  if (runtime !== 'bun' && runtime !== 'deno') return fetch;
  // Clients send the same Host request after request: a URL under the last plain origin let through passes at once.
  let passed = '';
  return (request, environment, executionCtx) => {
    if (runtime === 'bun' && passed !== '' && request.url.startsWith(passed))
      return fetch(request, environment, executionCtx);
    const reason = unservedUrlReason(request, runtime);
    if (reason === undefined) {
      if (runtime === 'bun') passed = plainOrigin(request.url);
      return fetch(request, environment, executionCtx);
    }
    const headers: Record<string, string> = { 'content-type': `${PROBLEM_JSON};charset=UTF-8` };
    if (nosniff) headers['x-content-type-options'] = 'nosniff';
    const problem = problemDetails('RXREST_MALFORMED_PATH', `The request target cannot be read: ${reason}`);
    return new Response(JSON.stringify(problem), { status: 400, headers });
  };
}
