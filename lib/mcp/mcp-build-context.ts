/** What the build step hands an MCP server class: the application's settings and the parts it shares with endpoints. */
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import type { EndpointInfo } from '../context/endpoint-info';
import type { Registry } from 'prom-client';
import type { EndpointKit } from '../pipeline/endpoint';
import type { ExceptionMappers } from '../errors/exception-mappers';
import type { McpSettings } from './mcp-settings';

export interface McpBuildContext extends Omit<EndpointKit, 'mappers'> {
  /** The mappers of the server's class. */
  readonly mappers: ExceptionMappers;
  /** The server's endpoint, as its methods' plans name it. */
  readonly info: EndpointInfo;
  /** Whether a stream ends when its credential expires (`framework.security.streams.end-on-expiry`). */
  readonly endsOnExpiry: boolean;
  readonly settings: McpSettings;
  /** The application's broadcast topics, where sessions and call streams are kept (made after the build). */
  readonly topics: () => BroadcastTopics;
  /** The application's Prometheus registry, when `framework.metrics.enabled` (asked per request: made after the build). */
  readonly metrics: () => Registry | undefined;
}
