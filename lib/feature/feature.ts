/** The feature contract: what a feature declares in one object and hands the build step (which knows none by name). */
import type { Config } from '../config';
import type { EndpointInfo } from '../context/endpoint-info';
import type { RequestContext } from '../context/request-context';
import type { StageFn, UnroutedAnswer } from '../context/settle';
import type { ProblemCollector } from '../errors/definition-error';
import type { MediaType } from '../http/media-type';
import type { MetaKey, MethodMeta } from '../metadata/store';
import type { Unit } from '../metadata/unit';
import type { Phase } from './phases';
import type { BuildKey, ListKey } from './build-key';

/** How a request reaches the application: a plain answer, a stream, a WebSocket upgrade, a message on a socket. */
export type Transport = 'answer' | 'stream' | 'upgrade' | 'message';

/** A status a feature can answer with by itself, and when: the OpenAPI document and socket upgrades list it. */
export interface FeatureAnswer {
  readonly status: number;
  readonly when: string;
}

/** An optional package a feature needs in this application, and what asks for it. */
export interface PackageNeed {
  readonly name: string;
  /** The setting or decorator that asks for it (`framework.metrics.enabled=true`). */
  readonly feature: string;
}

/** What the build step gives a feature. */
export interface FeatureBuild {
  readonly config: Config;
  /** The directory of `application.properties` (else the working directory): relative settings start there. */
  readonly directory: string;
  /** The discovered classes (resources, providers, health checks, socket endpoints...). */
  readonly units: readonly Unit[];
  readonly resources: readonly Unit[];
  /** `@ApplicationPath` or `framework.rest.path`. */
  readonly applicationPath: string;
  /** Add problems naming `Class#method` (`locate()`); the build fails with all of them together. */
  readonly problems: ProblemCollector;
  /** Hands `value` to the features built after this one, and to the build step. */
  provide<T>(key: BuildKey<T>, value: T): void;
  /** What a feature built earlier provided under `key`. */
  find<T>(key: BuildKey<T>): T | undefined;
  /** Adds `item` to the list under `key` (several features may add to one list). */
  contribute<T>(key: ListKey<T>, item: T): void;
  /** The items added under `key` so far, in order. */
  gather<T>(key: ListKey<T>): readonly T[];
}

/** One endpoint, as a feature sees it when it joins the endpoint's phases. */
export interface EndpointPlan {
  readonly unit: Unit;
  readonly method: MethodMeta;
  /** `Class#method`, for build problems. */
  readonly where: string;
  readonly info: EndpointInfo;
  readonly produces: readonly MediaType[];
  /** Whether the endpoint streams (an Observable, AsyncIterable or generator result). */
  readonly streams: boolean;
  /**
   * `answer` for a resource method or an MCP server's endpoint, `upgrade` for a WebSocket upgrade, `call` for a method
   * called through its class's endpoint (an MCP tool, resource or prompt: its class's declarations applied there).
   */
  readonly transport: 'answer' | 'upgrade' | 'call';
}

/** What `plan`'s endpoint declares under `key`: a method's own over its class's; a socket's class; a call's method. */
export function declaredOn<T>(plan: EndpointPlan, key: MetaKey<T>): T | undefined {
  if (plan.transport === 'upgrade') return plan.unit.meta.tags.get(key);
  if (plan.transport === 'call') return plan.method.tags.get(key);
  return plan.method.tags.get(key) ?? plan.unit.meta.tags.get(key);
}

/** A step a feature adds to one endpoint, in one of the endpoint's phases. */
export interface EndpointJoin {
  readonly phase: 'authenticate' | 'admit' | 'read' | 'after-invoke';
  readonly step: StageFn;
  /** The statuses this step can answer with on this endpoint (`[429]`): the endpoint's OpenAPI responses. */
  readonly answers?: readonly number[];
}

/** Runs a request's phases, from `receive` to its written head, inside something of a feature's (a span, a scope). */
export type Within = <T>(run: () => T) => T;

/** Asked per request: what to run its phases within, or `undefined` when nothing now (no tracing SDK registered). */
export type Around = (ctx: RequestContext) => Within | undefined;

/** The steps features add to one endpoint, by phase, and the statuses they can answer with there. */
export interface JoinedSteps {
  at(phase: EndpointJoin['phase']): StageFn[];
  readonly answers: readonly number[];
}

/** The steps of every feature joined to one endpoint (what the build step and endpoint-making features ask). */
export type EndpointJoins = (plan: EndpointPlan) => JoinedSteps;

/** What a feature hands the build step. */
export interface FeatureParts {
  /**
   * Runs every phase of a request, `receive` to `write`, inside it (tracing's span, the broadcast scope); the feature
   * listed first is outermost. A feature with one declares `receive`.
   */
  readonly around?: Around;
  /** `receive`: runs before routing, may answer (CORS preflights). */
  readonly receive?: StageFn;
  /** Joins the phases of one endpoint (resource methods and socket upgrades alike). */
  endpoint?(plan: EndpointPlan): readonly EndpointJoin[] | undefined;
  /** `route`: answers requests no endpoint matched, asked in feature order (made once the build stands). */
  unrouted?(): readonly UnroutedAnswer[];
  /** `finish`: sees every answer just before it is written, errors included. */
  readonly finish?: (ctx: RequestContext) => void;
  /** `write`: a whole Web `Response` a server writer made, before it leaves (what `finish` set is not in it). */
  readonly written?: (response: Response) => Response;
  /** `complete`: told of every answer once written, with `performance.now()` of the request's arrival. */
  readonly complete?: (ctx: RequestContext, status: number, started: number) => void;
  /** Runs once the build found no problem: connections opened, files read. */
  start?(): void;
  /** The server is shutting down: end streams and sockets within `graceMs`. */
  shutdown?(graceMs: number): void;
  /** Lets go of what it holds (connections, timers); after shutdown, or `app.close()`. */
  close?(): Promise<void> | void;
}

/** A feature: its settings, phases, statuses, transports and optional packages, and how it builds its parts. */
export interface Feature {
  /** A unique name (`security`, `cors`...). */
  readonly name: string;
  /** The `framework.*` keys (or key prefixes ending in `.`) it reads. */
  readonly settings: readonly string[];
  readonly phases: readonly Phase[];
  /** The statuses it can answer with by itself. */
  readonly answers?: readonly FeatureAnswer[];
  /** How it applies to each transport (absent: it does not apply there). */
  readonly transports: Readonly<Partial<Record<Transport, string>>>;
  /** The optional packages this application needs for it. */
  packages?(build: FeatureBuild): readonly PackageNeed[];
  /** Checks what it is given (problems name `Class#method`) and makes its parts; `undefined` when off. */
  build(build: FeatureBuild): FeatureParts | undefined;
}
