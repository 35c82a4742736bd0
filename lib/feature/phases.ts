/** The request phases in order: the one list features join by name and docs/lifecycle.md draws (a spec checks). */

/** One phase: when it runs, what runs in it, and how it is run. */
export interface PhaseDescription {
  readonly name: string;
  readonly when: string;
  /** The framework's own stages and the features that join it. */
  readonly runs: string;
  /** Every phase is synchronous while what it calls answers so; when one becomes an RxJS operator is said here. */
  readonly how: string;
}

export const PHASES = [
  {
    name: 'receive',
    when: 'before routing, on every request',
    runs: 'every later phase runs within the features’ arounds (the application’s broadcast scope, the request span when a tracing SDK is registered); a Host not allowed (400) under app.fetch, CORS preflights and origin refusals, then pre-matching filters (which may change method, URI and headers)',
    how: 'synchronous functions; a filter written as an RxJS operator is applied as one (the request becomes an Observable from there)',
  },
  {
    name: 'route',
    when: 'once the request is final',
    runs: 'matching path, method and media types (404, 405, 406, 415); unmatched requests are offered to the unrouted answers (health, metrics, the OpenAPI document, static files), in that order',
    how: 'synchronous; an unrouted answer may answer with a Promise',
  },
  {
    name: 'authenticate',
    when: 'after routing, first of the endpoint',
    runs: "security: the credential checked once against the matched method's access rule (401, 403); on an MCP server, its class's rule on its endpoint, then a tool's, resource's or prompt's own on the call",
    how: 'synchronous when no mechanism awaits (API keys); a JWT check answers with a Promise',
  },
  {
    name: 'admit',
    when: 'after authentication',
    runs: 'rate limits (429, counted per client, refused credentials included), caps on open streams (429, 503: streaming endpoints, and an MCP server’s POST and GET); the compression mode of the method',
    how: 'a Promise when a limit is counted (the counter store may be Redis), else synchronous',
  },
  {
    name: 'read',
    when: 'before the method',
    runs: 'request filters, legacy gzip inflation, parameters and body (reader interceptors), the hop to the worker lane',
    how: 'synchronous for parameters; reading a body answers with a Promise; a filter written as an RxJS operator is applied as one',
  },
  {
    name: 'invoke',
    when: 'once the arguments are read',
    runs: 'method interceptors and the method; its result becomes an answer (a value, a file, or a stream: SSE, NDJSON, JSON array)',
    how: 'a plain call; an Observable or Promise result is taken as it settles, an Observable or AsyncIterable stream is framed by the stream engine',
  },
  {
    name: 'after-invoke',
    when: 'once the method answered',
    runs: 'links: Link headers and HAL wrapping of the entity',
    how: 'synchronous',
  },
  {
    name: 'map-errors',
    when: 'when any phase before failed',
    runs: 'exception mappers (nearest supertype first), else the framework problem (RFC 9457) or a generic 500',
    how: 'synchronous; RxJS catchError only where the request already became an Observable',
  },
  {
    name: 'respond',
    when: 'with the answer, errors included',
    runs: 'response filters (method-bound, then global)',
    how: 'synchronous functions; a filter written as an RxJS operator is applied as one',
  },
  {
    name: 'finish',
    when: 'just before the head is written',
    runs: 'CORS response headers, rate-limit headers, X-Content-Type-Options: nosniff',
    how: 'synchronous',
  },
  {
    name: 'write',
    when: 'the answer leaves',
    runs: 'entity writers (writer interceptors), compression, the stream engine (SSE, NDJSON, JSON array, chunks), or the WebSocket takeover of a 101; a whole Response a server writer made passes the features’ written steps (nosniff)',
    how: 'synchronous head and body write on Node; a stream is written as its source emits, honouring the socket',
  },
  {
    name: 'complete',
    when: 'once the answer is written (or the client left)',
    runs: 'metrics (duration by route and status), clean-ups registered with onComplete, the end of the request span',
    how: 'synchronous callbacks',
  },
] as const satisfies readonly PhaseDescription[];

/** The name of a request phase. */
export type Phase = (typeof PHASES)[number]['name'];

export function isPhase(name: string): name is Phase {
  return PHASES.some((phase) => phase.name === name);
}
