/** What Bun, Workers and (for HEAD) Deno need done to an answer of `app.fetch`. Knows Web `Request`/`Response` only. */
import { streamOf } from './bytes';
import { currentRuntime, type Runtime } from './runtime-name';
import type { AnswerHeaders } from './web-response';
import { boundedOnWorkers, type WorkersStreamBounds } from './workers-streams';

export type FinishAnswer = (
  answer: Response | Promise<Response>,
  request: Request,
  environment: unknown,
  executionCtx: unknown,
) => Response | Promise<Response>;

const STREAMED = /^(?:text\/event-stream|application\/(?:x-ndjson|jsonl|stream\+json))\b/i;
// An SSE comment line: clients ignore it.
const SSE_HEAD = new TextEncoder().encode(':\n\n');

/** The finishing step of `runtime`, `undefined` on Node and Deno; `bounds` end the streams on Workers. */
export function answerFinisher(
  bounds: WorkersStreamBounds,
  runtime: Runtime = currentRuntime(),
): FinishAnswer | undefined {
  if (runtime === 'bun') return (answer, request, server) => then(answer, (made) => onBun(made, request, server));
  if (runtime === 'workerd')
    return (answer, request, _environment, executionCtx) =>
      then(answer, (made) => onWorkers(made, request, executionCtx, bounds));
  return undefined;
}

/**
 * Whether no finishing step need look at an answer: a text or byte body (or none), neither encoded nor streamed.
 * Decided from rxrest's own headers: reading a `Response`'s makes Bun build them.
 */
export function goesOutAsIs(body: unknown, headers: AnswerHeaders): boolean {
  if (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) return false;
  if (headers.has('content-encoding')) return false;
  return body === null || !STREAMED.test(headers.get('content-type') ?? '');
}

/**
 * What Deno and Bun need done to a HEAD's answer: they give a bodiless one `Content-Length: 0`, which would say the
 * streamed GET's body is empty. Given one empty chunk instead, Deno sends no length and Bun `chunked`, as for the GET.
 */
export function headFinisher(runtime: Runtime = currentRuntime()): ((answer: Response) => Response) | undefined {
  if (runtime !== 'deno' && runtime !== 'bun') return undefined;
  return (answer) => {
    const { status } = answer;
    if (answer.body !== null || status < 200 || status === 204 || status === 304) return answer;
    // One empty chunk: no byte goes out, but the runtime cannot take the answer for an empty one.
    return answer.headers.has('content-length') ? answer : rebuilt(answer, streamOf(new Uint8Array(0)));
  };
}

function then(answer: Response | Promise<Response>, finish: (made: Response) => Response) {
  if (answer instanceof Response) return finish(answer);
  // Nothing (a socket Bun's server took over) is passed on as it is.
  return answer instanceof Promise ? answer.then((made) => (made instanceof Response ? finish(made) : made)) : answer;
}

interface BunServer {
  timeout?(request: Request, seconds: number): void;
}

/**
 * Bun closes a connection quiet for `idleTimeout` (10 s) and holds a streamed head until its first chunk: a stream is
 * exempt from the idle timer, and an event stream starts with a comment so its client sees the head at once.
 */
function onBun(response: Response, request: Request, server: unknown): Response {
  const type = response.headers.get('content-type') ?? '';
  // The type first: reading `body` makes a stream of a text body on Bun (a microsecond on every JSON answer).
  if (!STREAMED.test(type) || response.body === null) return response;
  (server as BunServer | undefined)?.timeout?.(request, 0);
  if (!type.toLowerCase().startsWith('text/event-stream')) return response;
  return rebuilt(response, prefixed(response.body, SSE_HEAD));
}

/** workerd encodes a body by its `Content-Encoding` unless told it is encoded already (rxrest's compression did it). */
function onWorkers(response: Response, request: Request, executionCtx: unknown, bounds: WorkersStreamBounds): Response {
  const encoded = response.headers.has('content-encoding');
  const streamed = STREAMED.test(response.headers.get('content-type') ?? '') && response.body !== null;
  if (!encoded && !streamed) return response;
  const body = streamed ? boundedOnWorkers(response.body!, request, executionCtx, bounds) : response.body;
  return rebuilt(response, body, encoded ? { encodeBody: 'manual' } : {});
}

function rebuilt(response: Response, body: ReadableStream<Uint8Array> | null, extra: object = {}): Response {
  const init = { status: response.status, statusText: response.statusText, headers: response.headers, ...extra };
  return new Response(body, init as ResponseInit);
}

/** `body`, after `first`. */
function prefixed(body: ReadableStream<Uint8Array>, first: Uint8Array): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let sent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!sent) {
          sent = true;
          return controller.enqueue(first);
        }
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
