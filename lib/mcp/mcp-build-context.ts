/**
 * What the build step hands an MCP server class: `framework.mcp.*` (what every MCP server of the application is held
 * to), the application's settings and the parts it shares with endpoints.
 */
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import type { Config } from '../config/config';
import type { EndpointInfo } from '../context/endpoint-info';
import type { Registry } from 'prom-client';
import type { EndpointKit } from '../pipeline/endpoint';
import type { ExceptionMappers } from '../errors/exception-mappers';

export interface McpSettings {
  /** Host names (any port) a request's `Host`, and its `Origin` when sent, may name; `*` allows any. */
  readonly allowedHosts: readonly string[];
  /** A session with no request for this long is ended (milliseconds). */
  readonly sessionTimeoutMs: number;
  /** Sessions one server holds in this process at once. */
  readonly maxSessions: number;
  /** Messages one JSON-RPC batch may hold. */
  readonly maxBatchSize: number;
  /** How long a tool call goes on once nobody reads its stream, for its client to come back (milliseconds). */
  readonly callGraceMs: number;
  /** The SSE `retry:` a call's stream gives its client: how long to wait before reconnecting (milliseconds). */
  readonly retryMs: number;
}

export function mcpSettings(config: Config): McpSettings {
  return {
    allowedHosts: config.get('framework.mcp.allowed-hosts').map((host) => host.toLowerCase()),
    sessionTimeoutMs: config.get('framework.mcp.session-timeout'),
    maxSessions: config.get('framework.mcp.max-sessions'),
    maxBatchSize: config.get('framework.mcp.max-batch-size'),
    callGraceMs: config.get('framework.mcp.call-grace'),
    retryMs: config.get('framework.mcp.sse-retry'),
  };
}

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
