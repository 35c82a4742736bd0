/**
 * A Web request's URL is fixed: naming it anew makes it again, with the same method, headers and body. From those
 * parts, not from the request as a whole, which would read its `signal` (on Deno the legacy one, and Deno warns); the
 * client's leaving is heard on the request received. A GET's or HEAD's body is not asked for: on Deno, making the body
 * stream of an upgrade request breaks the upgrade.
 */
export function remadeRequest(url: string | URL, request: Request): Request {
  const { method, headers } = request;
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') [init.body, init.duplex] = [request.body, 'half'];
  return new Request(url, init);
}
