/** A compiled endpoint: what routing selects on, and the request handling built for it once. */
import type { AcceptRange } from '../http/accept';
import type { EndpointFacts } from '../openapi/endpoint-facts';
import type { MediaType } from '../http/media-type';
import type { PathTemplate } from '../routing/path-template';
import type { EndpointInfo, RequestContext } from '../context/request-context';
import type { StageResult } from '../context/stage';

export interface Endpoint {
  readonly info: EndpointInfo;
  readonly template: PathTemplate;
  /** Accepted request types; empty accepts any. */
  readonly consumes: readonly MediaType[];
  /** Producible types; empty means "decided by the returned value" (text for strings, else JSON). */
  readonly produces: readonly MediaType[];
  /** `Accept` (parsed) against `produces`: the negotiated type, `undefined` when none is acceptable (see `acceptNegotiator`). */
  readonly negotiate: (accept: readonly AcceptRange[]) => string | undefined;
  /** Whether the endpoint reads a request body (a missing `Content-Type` is then checked against `consumes`). */
  readonly readsBody: boolean;
  /** What the API description needs to know of it; read at build time only. */
  readonly facts: EndpointFacts;
  /** Runs request filters, the method and response filters; errors are already mapped. Synchronous when every stage is. */
  readonly handle: (ctx: RequestContext) => StageResult<RequestContext>;
}
