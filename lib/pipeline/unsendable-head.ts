/**
 * An answer whose head cannot be sent: a header the application set with CR, LF or another control character (Node
 * refuses it on HTTP/1.1, HTTP/2 would carry it to a proxy that may split it), or a status that is no final HTTP status
 * (the Web `Response` refuses it, Node sent it on). It is replaced by the 500 problem and logged in one line naming the
 * header or status and the method, never a header's value.
 */
import { isSendableField } from '../http/header-tokens';
import { logging } from '../logging/logger';
import type { ResponseHeaders } from '../response/response-headers';
import { DirectBody } from '../streaming/direct-body';
import type { RequestContext } from '../context/request-context';
import { internalErrorResponse } from './map-errors';
import type { OutgoingBody } from './write-response';

const log = logging.getLogger('rxrest.errors');

/** The name of the first header that cannot be sent. */
export function unsendableHeader(headers: ResponseHeaders): string | undefined {
  for (const [name, values] of headers.entries())
    for (const value of values) if (!isSendableField(name, value)) return name;
  return undefined;
}

/** Whether `status` can be an answer's final status: an integer from 200 to 599 (what a Web `Response` takes). */
export function isSendableStatus(status: number): boolean {
  return Number.isInteger(status) && status >= 200 && status <= 599;
}

/** What makes the head of `ctx`'s answer unsendable, for the log. */
function unsendableHead(ctx: RequestContext, where: string): string | undefined {
  const { status, headers } = ctx.response!;
  if (!isSendableStatus(status))
    return `Response status ${status} set by ${where} is not an HTTP status (an integer from 200 to 599): answered 500 instead`;
  const name = unsendableHeader(headers);
  if (name === undefined) return undefined;
  return `Response header ${JSON.stringify(name)} set by ${where} has a value that cannot be sent (CR, LF or another control character): answered 500 instead`;
}

/** Lets go of a body that will not be sent: its source is stopped. */
function discard(body: OutgoingBody): void {
  if (body instanceof DirectBody) body.cancel();
  else if (body instanceof Response) void body.body?.cancel().catch(() => undefined);
  else if (body instanceof ReadableStream) void body.cancel().catch(() => undefined);
}

/** Replaces the answer of `ctx` by the 500 problem when its head cannot be sent, discarding `body`; else `false`. */
export function replaceUnsendable(ctx: RequestContext, body: OutgoingBody): boolean {
  const endpoint = ctx.endpoint;
  const where = endpoint
    ? `${endpoint.resourceClass.name}#${endpoint.methodName}`
    : `the answer to ${ctx.method} ${ctx.rawPath}`;
  const problem = unsendableHead(ctx, where);
  if (problem === undefined) return false;
  log.error(problem);
  discard(body);
  ctx.response = internalErrorResponse();
  return true;
}
