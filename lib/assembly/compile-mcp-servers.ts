/**
 * The application's `@McpServer` classes as endpoints. The MCP code (and zod's JSON Schema writer) is loaded only when
 * a class declares a server.
 */
import type { Registry } from 'prom-client';
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import type { Config } from '../config';
import { MCP_SERVER } from '../decorators/mcp';
import type { JsonMapper } from '../json/json-mapper';
import type { Endpoint } from '../pipeline/endpoint';
import type { StreamSettings } from '../streaming/stream-pump';
import { applicable, requestSteps, responseSteps } from './compile-filters';
import type { EndpointContext } from './compile-endpoint';
import { mappersFor, type MapperSet } from './compile-mappers';
import type { Unit } from './discover';

export interface McpServers {
  readonly endpoints: readonly Endpoint[];
  /** Ends every session (their calls are cancelled). */
  close(): void;
}

const NONE: McpServers = { endpoints: [], close: () => undefined };

export function compileMcpServers(
  units: readonly Unit[],
  context: Omit<EndpointContext, 'mappers'> & { readonly streams: StreamSettings },
  mappers: MapperSet,
  json: JsonMapper,
  config: Config,
  metrics: () => Registry | undefined,
  topics: () => BroadcastTopics,
): McpServers {
  const declared = units.filter((unit) => unit.meta.tags.has(MCP_SERVER));
  if (declared.length === 0) return NONE;
  const { compileMcpServer } = require('../mcp/compile-mcp-server') as typeof import('../mcp/compile-mcp-server');
  const { mcpSettings } = require('../mcp/mcp-settings') as typeof import('../mcp/mcp-settings');
  const settings = mcpSettings(config);
  const servers = declared.flatMap((unit) => {
    const server = compileMcpServer(unit, {
      applicationPath: context.applicationPath,
      problems: context.problems,
      mappers: mappersFor(mappers, unit.type),
      json,
      security: context.security,
      rateLimits: context.rateLimits,
      streams: context.streams,
      maxBodySize: context.body.maxBodySize,
      settings,
      metrics,
      topics,
      filters: (bindings) => ({
        request: requestSteps(applicable(context.filters.request, bindings)),
        response: responseSteps(applicable(context.filters.response, bindings)),
      }),
    });
    return server ? [server] : [];
  });
  return {
    endpoints: servers.flatMap((server) => server.endpoints),
    close: () => servers.forEach((server) => server.runtime.sessions.closeAll()),
  };
}
