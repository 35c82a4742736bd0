/**
 * The framework's own features, in the order they join each phase: a request for a host not served is refused before
 * anything else, CORS answers preflights next,
 * the socket origin check runs before security on upgrades, security before rate limits (a client is its
 * principal), and the unrouted answers are asked health, metrics, OpenAPI, then static files.
 */
import { broadcastFeature } from '../broadcast/broadcast-feature';
import { durableStreamsFeature } from '../broadcast/durable-streams-feature';
import { compressionFeature } from '../compression/compression-feature';
import { corsFeature } from '../cors/cors-feature';
import type { Feature } from '../feature/feature';
import { healthFeature } from '../health/health-feature';
import { linksFeature } from '../links/links-feature';
import { mcpFeature } from '../mcp/mcp-feature';
import { metricsFeature } from '../metrics/metrics-feature';
import { multipartFeature } from '../multipart/multipart-feature';
import { openApiFeature } from '../openapi/openapi-feature';
import { rateLimitFeature } from '../rate-limit/rate-limit-feature';
import type { AuthenticationMechanism } from '../security/authentication-mechanism';
import { allowedHostsFeature } from '../security/allowed-hosts-feature';
import { nosniffFeature } from '../security/nosniff';
import { securityFeature } from '../security/security-feature';
import { staticFilesFeature } from '../static/static-feature';
import { tracingFeature } from '../tracing/tracing-feature';
import { webSocketFeature } from '../websocket/websocket-feature';

/** The built-in features of an application whose own authentication mechanisms are `authentication`. */
export function builtInFeatures(authentication: readonly AuthenticationMechanism[] = []): Feature[] {
  return [
    allowedHostsFeature,
    compressionFeature,
    multipartFeature,
    corsFeature,
    webSocketFeature,
    rateLimitFeature,
    securityFeature(authentication),
    nosniffFeature,
    linksFeature,
    healthFeature,
    durableStreamsFeature,
    broadcastFeature,
    tracingFeature,
    metricsFeature,
    openApiFeature,
    staticFilesFeature,
    mcpFeature,
  ];
}
