// The framework's log categories, one per lib/ module, documented for users who tune their levels.

/**
 * Every category the framework logs under, with what it reports. A level set on `rxrest` applies to all
 * of them; `framework.log.category."rxrest.params".level=DEBUG` shows the parameter failures that are
 * otherwise not logged.
 *
 * @example
 * Object.keys(LOG_CATEGORIES); // ['rxrest.build', 'rxrest.config', ...]
 */
export const LOG_CATEGORIES = {
  'rxrest.build': 'the build step: discovered classes, duplicate-endpoint warnings, missing metadata',
  'rxrest.config': 'configuration loading and the active profile',
  'rxrest.routing': 'route matching, 404/405 decisions',
  'rxrest.params': 'parameter conversion failures (DEBUG only)',
  'rxrest.body': 'request body readers and writers',
  'rxrest.errors': 'exception mapping; unmapped errors with their stack at ERROR',
  'rxrest.pipeline': 'filters, interceptors and the request lifecycle',
  'rxrest.execution': 'worker lane scheduling and methods blocking the event loop',
  'rxrest.server': 'listening, shutdown and connection errors',
  'rxrest.streaming': 'SSE, NDJSON and chunked streams: overflow, disconnects, source errors',
  'rxrest.multipart': 'multipart parsing, limits and upload file cleanup',
  'rxrest.compression': 'response compression and legacy gzip',
  'rxrest.openapi': 'the OpenAPI document: what it cannot describe',
  'rxrest.security':
    'authentication: why a credential was refused (DEBUG only, never sent to the client); JWTs without an audience (WARN at start)',
  'rxrest.websocket': 'WebSocket sessions: socket errors (DEBUG), failing @OnClose/@OnError methods and clean-ups',
  'rxrest.limits': 'rate limits: the Redis counter store coming and going',
  'rxrest.mcp': 'MCP servers: tools that failed (with their error, which the client never sees) and sessions',
} as const;

/** A category name from {@link LOG_CATEGORIES}. */
export type LogCategory = keyof typeof LOG_CATEGORIES;
