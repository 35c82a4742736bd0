/** Reads a request body as bytes or text, enforcing the body size limit before and while reading. */
import { httpProblem } from '../errors/http-problem';

const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder('utf-8');

function tooLarge(limit: number): Error {
  return httpProblem('RXREST_BODY_TOO_LARGE', `The request body is larger than the limit of ${limit} bytes`);
}

/**
 * Whether the request has a body, told from its headers when they tell (RFC 9112 §6.3): reading
 * `request.body` would make `@hono/node-server` build a Web stream for the request, while `text()` and
 * `arrayBuffer()` with a known length read the socket directly.
 */
function hasBody(request: Request, declared: string | null): boolean {
  if (declared !== null) return declared !== '0';
  if (request.headers.has('transfer-encoding')) return true;
  return request.body !== null;
}

/**
 * The whole body, failing with 413 as soon as it is known to pass `limit`: at once from
 * `Content-Length`, or while counting a chunked body (the rest is never read).
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!hasBody(request, declared)) return EMPTY;
  if (declared !== null) return new Uint8Array(await request.arrayBuffer());
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) <= limit) return hasBody(request, declared) ? request.text() : '';
  return decoder.decode(await readBodyBytes(request, limit));
}
