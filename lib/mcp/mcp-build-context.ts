/** What the build step hands an MCP server class: the application's settings and the parts it shares with endpoints. */
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import type { ProblemCollector } from '../errors/definition-error';
import type { ExceptionMappers } from '../errors/exception-mappers';
import type { Registry } from 'prom-client';
import type { JsonMapper } from '../json/json-mapper';
import type { Step } from '../pipeline/chain';
import type { RateLimiters } from '../rate-limit/rate-limits';
import type { SecuritySettings } from '../security/security-stage';
import type { StreamSettings } from '../streaming/stream-pump';
import type { McpSettings } from './mcp-settings';

export interface McpBuildContext {
  readonly applicationPath: string;
  readonly problems: ProblemCollector;
  readonly mappers: ExceptionMappers;
  readonly json: JsonMapper;
  readonly security: SecuritySettings | undefined;
  readonly rateLimits: RateLimiters | undefined;
  /** The application's stream settings (budget, overflow, keep-alive, the open streams a shutdown ends). */
  readonly streams: StreamSettings;
  /** `framework.http.limits.max-body-size`. */
  readonly maxBodySize: number;
  readonly settings: McpSettings;
  /** The application's broadcast topics, where sessions and call streams are kept (made after the build). */
  readonly topics: () => BroadcastTopics;
  /** The application's Prometheus registry, when `framework.metrics.enabled` (asked per request: made after the build). */
  readonly metrics: () => Registry | undefined;
  /** The application's request and response filters that apply to a class with these name bindings. */
  filters(bindings: ReadonlySet<string>): { readonly request: readonly Step[]; readonly response: readonly Step[] };
}
