// The log levels and their order, and the categories the framework logs under; knows nothing of loggers or sinks.

/**
 * Log levels from most to least verbose. `OFF` is only a threshold: nothing is logged at it.
 *
 * @example
 * LOG_LEVELS.includes('DEBUG'); // true
 */
export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'OFF'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A level a record can be written at (every level but `OFF`). */
export type RecordLevel = Exclude<LogLevel, 'OFF'>;

/** The position of a level in {@link LOG_LEVELS}: a record is written when its rank is at least the threshold's. */
export function levelRank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/** Reads a level name case-insensitively, trimmed (` debug` → `DEBUG`); `undefined` for anything else. */
export function parseLogLevel(text: string): LogLevel | undefined {
  const upper = text.trim().toUpperCase();
  return LOG_LEVELS.find((level) => level === upper);
}

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
