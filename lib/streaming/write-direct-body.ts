/** Writes a `DirectBody` response: headers and body straight to the Node response, or as a Web stream. */
import type { ServerResponse } from 'node:http';
import type { ResponseContext } from '../context/response-context';
import type { DirectBody } from './direct-body';
import type { RequestContext } from '../context/request-context';
import { nodeResponseOf } from './node-sink';

// Tells @hono/node-server that the response was written already (its X_ALREADY_SENT constant).
const ALREADY_SENT = 'x-hono-already-sent';

/** `Content-Type` and `Content-Length` of `body`, unless the response has its own. */
export function setBodyHeaders(response: ResponseContext, body: DirectBody): void {
  if (!response.headers.has('content-type')) response.headers.set('content-type', body.mediaType);
  if (body.length !== undefined && !response.headers.has('content-length'))
    response.headers.set('content-length', body.length);
}

/** Sends `body` on Node's response: the head, then the body as it comes (only the head for HEAD). */
export function writeDirectBodyTo(ctx: RequestContext, body: DirectBody, outgoing: ServerResponse): void {
  const response = ctx.response!;
  setBodyHeaders(response, body);
  // The first bytes are already there (streams are primed, files stat-ed), so the headers leave with them.
  outgoing.writeHead(response.status, response.headers.toInit());
  if (ctx.method !== 'HEAD') return body.writeTo(outgoing);
  body.cancel();
  outgoing.end();
}

/** Answers with `body`: on Node straight to its response (a marker tells the server), else as a Web stream. */
export function writeDirectBody(ctx: RequestContext, body: DirectBody): Response {
  const response = ctx.response!;
  const head = ctx.method === 'HEAD';
  const outgoing = head ? undefined : nodeResponseOf(ctx);
  if (!outgoing) {
    setBodyHeaders(response, body);
    if (head) body.cancel();
    const stream = head ? null : body.toWebStream();
    return new Response(stream, { status: response.status, headers: response.headers.toInit() });
  }
  writeDirectBodyTo(ctx, body, outgoing);
  const marker = new Response(null, { headers: { [ALREADY_SENT]: '1' } });
  // node-server answers "cacheable" responses on a shortcut that ignores the marker; reading `body` leaves it.
  void marker.body;
  return marker;
}
