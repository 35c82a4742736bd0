// The log levels and their order; knows nothing of loggers, sinks or configuration.

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

/**
 * The position of a level in {@link LOG_LEVELS}: a record is written when its rank is at least the
 * threshold's rank.
 *
 * @example
 * levelRank('WARN') > levelRank('INFO'); // true
 */
export function levelRank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/**
 * Reads a level name case-insensitively (`debug` → `DEBUG`); `undefined` for anything else.
 *
 * @example
 * parseLogLevel(' warn '); // 'WARN'
 */
export function parseLogLevel(text: string): LogLevel | undefined {
  const upper = text.trim().toUpperCase();
  return LOG_LEVELS.find((level) => level === upper);
}
