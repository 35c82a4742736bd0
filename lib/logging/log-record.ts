// Log records, the sink type, and the default sink writing one line per record to stderr.
import { inspect } from 'node:util';
import type { RecordLevel } from './log-level';

/** One thing logged. */
export interface LogRecord {
  readonly level: RecordLevel;
  readonly category: string;
  readonly message: string;
  /** An Error (its stack is printed) or any value (printed inline). */
  readonly detail?: unknown;
  readonly time: Date;
  /** The trace and span active when the record was made (an OpenTelemetry SDK registered, in a request). */
  readonly traceId?: string;
  readonly spanId?: string;
}

/** Receives every record that passed its logger's level. */
export type LogSink = (record: LogRecord) => void;

/**
 * Formats a record as text: `<ISO time> <LEVEL> [<category>] <message>`, then an Error detail's stack (and
 * its causes) on the following lines, or any other detail inline after the message.
 *
 * @example
 * formatLogRecord({ level: 'WARN', category: 'rxrest.build', message: 'slow', time: new Date(0) });
 * // '1970-01-01T00:00:00.000Z WARN  [rxrest.build] slow'
 */
export function formatLogRecord(record: LogRecord): string {
  const trace = record.traceId ? `[trace_id=${record.traceId} span_id=${record.spanId}] ` : '';
  const head = `${record.time.toISOString()} ${record.level.padEnd(5)} [${record.category}] ${trace}${record.message}`;
  if (record.detail === undefined) return head;
  if (record.detail instanceof Error) return `${head}\n${describeError(record.detail)}`;
  return `${head} ${inspect(record.detail, { breakLength: Infinity, depth: 4 })}`;
}

/** The default sink: one formatted record per write to `process.stderr`. */
export const stderrSink: LogSink = (record) => {
  process.stderr.write(`${formatLogRecord(record)}\n`);
};

function describeError(error: Error): string {
  const lines = [error.stack ?? `${error.name}: ${error.message}`];
  // Causes are where wrapped failures keep their origin; cap the chain in case it loops.
  let cause: unknown = error.cause;
  for (let depth = 0; cause !== undefined && depth < 8; depth++) {
    lines.push(cause instanceof Error ? `Caused by: ${cause.stack ?? cause.message}` : `Caused by: ${inspect(cause)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return lines.join('\n');
}
