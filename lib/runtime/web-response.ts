/**
 * The Web `Response` of an answer whose status, headers and text or byte body are known, built in the form the runtime
 * serving it makes cheapest. Knows Web `Response`; nothing of requests or the pipeline.
 */
import { currentRuntime, type Runtime } from './runtime-name';

/** An answer's header lines as rxrest keeps them (`ResponseHeaders`): a repeated name holds an array. */
export interface AnswerHeaders {
  has(name: string): boolean;
  get(name: string): string | undefined;
  /** A plain object of the lines, whose non-enumerable iterator (when a name repeats) gives each line apart. */
  toInit(): Record<string, string | string[]>;
}

/** A Web `Response` of `body` with `status` and every line of `headers`. */
export type ResponseMaker = (
  body: string | Uint8Array | ReadableStream<Uint8Array> | null,
  status: number,
  headers: AnswerHeaders,
) => Response;

/**
 * Node (and `@hono/node-server`'s lightweight `Response`, which hands the object to `writeHead`), Bun and workerd: the
 * headers as one plain object, the form Bun's profile found cheapest (an array of pairs or a `Headers` cost more).
 */
const plainResponse: ResponseMaker = (body, status, headers) =>
  new Response(body, { status, headers: headers.toInit() });

// A `Response` Deno can serve by its fast path: status 200, a text or byte body, one `Content-Type` it knows.
const DENO_FAST_INIT: ResponseInit = Object.freeze({ headers: Object.freeze({ 'content-type': 'application/json' }) });

/**
 * Deno: made from any other headers, a `Response` with a text or byte body has its native answer built at once (about
 * 4 µs a `Response` with two headers, against 0.3 µs for one it serves by its fast path). A 200 is therefore made in
 * the fast form and given its real headers afterwards, which Deno then sends with the body in one step (0.6 µs).
 */
const denoResponse: ResponseMaker = (body, status, headers) => {
  if (status !== 200 || !(typeof body === 'string' || body instanceof Uint8Array) || !headers.has('content-type'))
    return plainResponse(body, status, headers);
  const response = new Response(body, DENO_FAST_INIT);
  const target = response.headers;
  const init = headers.toInit();
  for (const name in init) {
    const value = init[name];
    if (typeof value === 'string') target.set(name, value);
    else {
      // Each line its own (Set-Cookie), as the plain form's sequence of pairs keeps them.
      target.delete(name);
      for (const line of value) target.append(name, line);
    }
  }
  return response;
};

/** How `runtime` builds an answer's `Response` (each form makes the same status, header lines and body). */
export function responseMaker(runtime: Runtime = currentRuntime()): ResponseMaker {
  return runtime === 'deno' ? denoResponse : plainResponse;
}
