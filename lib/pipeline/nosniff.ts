/**
 * `X-Content-Type-Options: nosniff` (Fetch §3.5.2): a browser takes an answer as its declared type only, so a text
 * or JSON body an attacker filled is never run as a script or rendered as a page. Added to the answer as it is
 * written, after filters and mappers, unless the answer already has the header.
 */
import type { ResponseHeaders } from '../response/response-headers';
import type { OutgoingBody } from './write-response';

const NAME = 'x-content-type-options';

export function forbidSniffing(headers: ResponseHeaders): void {
  if (!headers.has(NAME)) headers.set(NAME, 'nosniff');
}

/**
 * The body to send, a whole `Response` a server writer made given the header too (a copy when its headers are
 * immutable, as those of a fetched `Response` are).
 */
export function forbidSniffingOf(body: OutgoingBody): OutgoingBody {
  if (!(body instanceof Response) || body.headers.has(NAME)) return body;
  try {
    body.headers.set(NAME, 'nosniff');
    return body;
  } catch {
    const copy = new Response(body.body, body);
    copy.headers.set(NAME, 'nosniff');
    return copy;
  }
}
