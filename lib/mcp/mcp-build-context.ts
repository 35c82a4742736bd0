/** What the build step hands an MCP server class: `framework.mcp.*` and the parts it shares with endpoints. */
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import type { Config } from '../config/config';
import type { EndpointInfo } from '../context/endpoint-info';
import type { Registry } from 'prom-client';
import type { EndpointKit } from '../pipeline/endpoint';
import type { ExceptionMappers } from '../errors/exception-mappers';

export function mcpSettings(config: Config) {
  return {
    // Host names (any port) a request's `Host`, and its `Origin` when sent, may name; `*` allows any.
    allowedHosts: config.get('framework.mcp.allowed-hosts').map((host) => host.toLowerCase()),
    sessionTimeoutMs: config.get('framework.mcp.session-timeout'),
    maxSessions: config.get('framework.mcp.max-sessions'),
    maxBatchSize: config.get('framework.mcp.max-batch-size'),
    callGraceMs: config.get('framework.mcp.call-grace'),
    retryMs: config.get('framework.mcp.sse-retry'),
  };
}

export interface McpBuildContext extends Omit<EndpointKit, 'mappers'> {
  /** The server class's. */
  readonly mappers: ExceptionMappers;
  /** The server's endpoint, as its methods' plans name it. */
  readonly info: EndpointInfo;
  readonly endsOnExpiry: boolean;
  readonly settings: Readonly<ReturnType<typeof mcpSettings>>;
  /** Made after the build, as is the registry. */
  readonly topics: () => BroadcastTopics;
  readonly metrics: () => Registry | undefined;
}
