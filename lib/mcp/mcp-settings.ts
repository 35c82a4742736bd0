/** `framework.mcp.*`: what every MCP server of the application is held to. */
import type { Config } from '../config/config';

export interface McpSettings {
  /** Host names (any port) a request's `Host`, and its `Origin` when sent, may name; `*` allows any. */
  readonly allowedHosts: readonly string[];
  /** A session with no request for this long is ended (milliseconds). */
  readonly sessionTimeoutMs: number;
  /** How long a tool call goes on once nobody reads its stream, for its client to come back (milliseconds). */
  readonly callGraceMs: number;
  /** The SSE `retry:` a call's stream gives its client: how long to wait before reconnecting (milliseconds). */
  readonly retryMs: number;
}

export function mcpSettings(config: Config): McpSettings {
  return {
    allowedHosts: config.get('framework.mcp.allowed-hosts').map((host) => host.toLowerCase()),
    sessionTimeoutMs: config.get('framework.mcp.session-timeout'),
    callGraceMs: config.get('framework.mcp.call-grace'),
    retryMs: config.get('framework.mcp.sse-retry'),
  };
}
