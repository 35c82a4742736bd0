/**
 * A Web request's URL is fixed: naming it anew makes it again from its method, headers and body, not from the whole
 * request, whose `signal` that would read (Deno warns). A GET's or HEAD's body is not asked for: on Deno, making an
 * upgrade request's body stream breaks the upgrade.
 */
export function remadeRequest(url: string | URL, request: Request): Request {
  const { method, headers } = request;
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') [init.body, init.duplex] = [request.body, 'half'];
  return new Request(url, init);
}
