/** What a tool sends while it runs besides its result, as items of its Observable or through its `McpCall`. */

/** The MCP log levels, least severe first (RFC 5424's, as `logging/setLevel` names them). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export type McpLogLevel = (typeof LOG_LEVELS)[number];

const NOTICE = Symbol.for('rxrest.mcp.notice');

export interface ProgressNotice {
  readonly kind: 'progress';
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface LogNotice {
  readonly kind: 'log';
  readonly level: McpLogLevel;
  readonly data: unknown;
  readonly logger?: string;
}

/** An item of a tool's output that is a notification, not (part of) its result. */
export type McpNotice = ProgressNotice | LogNotice;

function mark<T extends McpNotice>(notice: T): T {
  return Object.defineProperty(notice, NOTICE, { value: true });
}

export function isNotice(value: unknown): value is McpNotice {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[NOTICE] === true;
}

/**
 * A progress notification for the call (`notifications/progress`), sent when the client asked for progress (it gave
 * a `progressToken`). `progress` should grow with each one; `total`, when known, is where it ends.
 *
 * @example
 * return interval(100).pipe(take(n), map((k) => progressNotice(k + 1, n)), endWith(`done ${n}`));
 */
export function progressNotice(progress: number, total?: number, message?: string): ProgressNotice {
  if (!Number.isFinite(progress)) throw new RangeError(`progress must be a finite number, got ${progress}`);
  return mark({
    kind: 'progress',
    progress,
    ...(total === undefined ? {} : { total }),
    ...(message === undefined ? {} : { message }),
  });
}

/**
 * A log message for the client (`notifications/message`), sent when its level is at or above the one the client
 * set with `logging/setLevel` (every level until it sets one).
 *
 * @example
 * return concat(of(logNotice('info', 'Looking it up')), lookUp(args));
 */
export function logNotice(level: McpLogLevel, data: unknown, logger?: string): LogNotice {
  if (!LOG_LEVELS.includes(level)) throw new RangeError(`unknown MCP log level ${String(level)}`);
  return mark({ kind: 'log', level, data, ...(logger === undefined ? {} : { logger }) });
}

/** `undefined`: no threshold set, every message passes. */
export function passesLevel(level: McpLogLevel, threshold: McpLogLevel | undefined): boolean {
  return threshold === undefined || LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

export function isLogLevel(value: unknown): value is McpLogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}
