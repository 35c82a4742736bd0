/** A compiled endpoint: what routing selects on, and the request handling built for it once. */
import type { AcceptRange } from '../http/accept';
import type { MediaType } from '../http/media-type';
import type { PathTemplate } from '../routing/path-template';
import type { EndpointInfo, RequestContext } from '../context/request-context';
import type { StageResult } from '../context/stage';
import type { ProblemCollector } from '../errors/definition-error';
import type { ExceptionMappers } from '../errors/exception-mappers';
import { ListKey } from '../feature/build-key';
import type { EndpointJoins } from '../feature/feature';
import type { JsonMapper } from '../json/json-mapper';
import type { StreamSettings } from '../streaming/stream-pump';
import type { Step } from './chain';

export interface Endpoint {
  readonly info: EndpointInfo;
  readonly template: PathTemplate;
  /** Empty accepts any. */
  readonly consumes: readonly MediaType[];
  /** Empty: decided by the returned value (text for strings, else JSON). */
  readonly produces: readonly MediaType[];
  /** `Accept` against `produces`: the negotiated type, `undefined` when none is acceptable. */
  readonly negotiate: (accept: readonly AcceptRange[]) => string | undefined;
  /** A missing `Content-Type` is then checked against `consumes`. */
  readonly readsBody: boolean;
  /** Request filters, the method and response filters, errors mapped; synchronous when every stage is. */
  readonly handle: (ctx: RequestContext) => StageResult<RequestContext>;
}

/** What the build step hands a feature that compiles endpoints of its own (MCP servers), once the core is planned. */
export interface EndpointKit {
  readonly applicationPath: string;
  readonly problems: ProblemCollector;
  /** The steps every feature joins to an endpoint (security, rate limits, stream caps), as for resources. */
  readonly joins: EndpointJoins;
  /** The exception mappers the endpoints of `type` see (its own, then the global ones). */
  mappers(type: Function): ExceptionMappers;
  /** The request and response filters that apply to endpoints with these name bindings. */
  filters(bindings: ReadonlySet<string>): { readonly request: readonly Step[]; readonly response: readonly Step[] };
  readonly streams: StreamSettings;
  /** `framework.http.limits.max-body-size`. */
  readonly maxBodySize: number;
  readonly json: JsonMapper;
}

/** Where a feature adds what compiles its endpoints; the build step routes them with the resources'. */
export const ENDPOINT_SOURCES = new ListKey<(kit: EndpointKit) => readonly Endpoint[]>('endpoint-sources');
