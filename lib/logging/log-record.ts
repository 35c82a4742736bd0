// Log records, the sink type, and the default sink writing one line per record to stderr.
import { maybeNodeBuiltin } from '../runtime/node-builtins';
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
 * `<ISO time> <LEVEL> [<category>] <message>`, then an Error detail's stack (and its causes) on the following lines,
 * or any other detail inline after the message.
 */
export function formatLogRecord(record: LogRecord): string {
  const trace = record.traceId ? `[trace_id=${record.traceId} span_id=${record.spanId}] ` : '';
  const head = `${record.time.toISOString()} ${record.level.padEnd(5)} [${record.category}] ${trace}${record.message}`;
  if (record.detail === undefined) return head;
  if (record.detail instanceof Error) return `${head}\n${describeError(record.detail)}`;
  return `${head} ${describe(record.detail)}`;
}

/** One formatted record per write to `process.stderr`. */
export const stderrSink: LogSink = (record) => {
  const stderr = (globalThis as { process?: { stderr?: { write(text: string): unknown } } }).process?.stderr;
  // A runtime with no process (a Worker without nodejs_compat) logs through its console.
  if (stderr) stderr.write(`${formatLogRecord(record)}\n`);
  else console.error(formatLogRecord(record));
};

/** A detail as Node's `inspect` shows it, or as JSON where the runtime has no `node:util`. */
function describe(detail: unknown): string {
  const util = maybeNodeBuiltin('node:util');
  if (util) return util.inspect(detail, { breakLength: Infinity, depth: 4 });
  try {
    return JSON.stringify(detail) ?? String(detail);
  } catch {
    return String(detail);
  }
}

function describeError(error: Error): string {
  const lines = [error.stack ?? `${error.name}: ${error.message}`];
  // Causes are where wrapped failures keep their origin; cap the chain in case it loops.
  let cause: unknown = error.cause;
  for (let depth = 0; cause !== undefined && depth < 8; depth++) {
    lines.push(cause instanceof Error ? `Caused by: ${cause.stack ?? cause.message}` : `Caused by: ${describe(cause)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return lines.join('\n');
}
