/** MCP servers as a feature; their code (and zod's JSON Schema writer) is loaded only when a class declares one. */
import { BROADCAST } from '../broadcast/broadcast-feature';
import { MCP_SERVER } from '../decorators/mcp';
import { defineFeature } from '../feature/define-feature';
import { METRICS } from '../metrics/metrics-feature';
import { ENDPOINT_SOURCES } from '../pipeline/endpoint';
import { SECURITY } from '../security/security-feature';
import type { CompiledMcpServer } from './compile-mcp-server';

export const mcpFeature = defineFeature({
  name: 'mcp',
  settings: ['framework.mcp.'],
  phases: ['authenticate', 'admit', 'invoke'],
  answers: [
    { status: 400, when: 'a JSON-RPC message that is not one, or an unknown session' },
    { status: 403, when: 'a Host the DNS-rebinding check does not allow' },
    { status: 404, when: 'an ended session' },
  ],
  transports: {
    answer: 'Streamable HTTP: a POST answered as JSON or as an SSE stream of the call',
    stream:
      'a call’s progress and result as SSE, resumable with Last-Event-ID on any instance; a POST or GET holds one of the open streams while it lasts',
  },
  build(build) {
    const declared = build.units.filter((unit) => unit.meta.tags.has(MCP_SERVER));
    if (declared.length === 0) return undefined;
    const { compileMcpServer } = require('./compile-mcp-server') as typeof import('./compile-mcp-server');
    const { mcpSettings } = require('./mcp-build-context') as typeof import('./mcp-build-context');
    const settings = mcpSettings(build.config);
    const broadcast = build.find(BROADCAST)!;
    const endsOnExpiry = build.find(SECURITY)?.endStreamsOnExpiry ?? false;
    let servers: CompiledMcpServer[] = [];
    build.contribute(ENDPOINT_SOURCES, (kit) => {
      const context = {
        ...kit,
        settings,
        endsOnExpiry,
        // Both are made once the build stands; the servers ask for them per request.
        metrics: () => build.find(METRICS)?.registry,
        topics: () => broadcast().topics,
      };
      servers = declared.flatMap((unit) => compileMcpServer(unit, context) ?? []);
      return servers.flatMap((server) => server.endpoints);
    });
    // Every session ends (its calls cancelled) when the application lets go.
    return { close: () => servers.forEach((server) => server.runtime.sessions.closeAll()) };
  },
});
