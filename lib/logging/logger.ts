// Loggers by category, their levels (inherited along dot-separated prefixes) and the sink they write to.
import { levelRank, type LogLevel, type RecordLevel } from './log-level';
import { stderrSink, type LogRecord, type LogSink } from './log-record';

/** Writes records under one category; calls below the category's level cost one comparison. */
export interface Logger {
  readonly category: string;
  trace(message: string, detail?: unknown): void;
  debug(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
  /** Whether a record at `level` would be written; guard costly messages with it. */
  isEnabled(level: LogLevel): boolean;
}

/** Levels to apply: a root level and levels for categories (and, by prefix, their sub-categories). */
export interface LogLevels {
  readonly level?: LogLevel;
  readonly categories?: Iterable<readonly [string, LogLevel]>;
}

/** The part of `Config` logging reads. */
export interface LoggingConfiguration {
  get(key: 'framework.log.level'): LogLevel;
  logCategoryLevels(): ReadonlyMap<string, LogLevel>;
}

const OFF_RANK = levelRank('OFF');

class ManagedLogger implements Logger {
  readonly category: string;
  #threshold: number;
  readonly #emit: (record: LogRecord) => void;

  constructor(category: string, level: LogLevel, emit: (record: LogRecord) => void) {
    this.category = category;
    this.#threshold = levelRank(level);
    this.#emit = emit;
  }

  retune(level: LogLevel): void {
    this.#threshold = levelRank(level);
  }

  isEnabled(level: LogLevel): boolean {
    const rank = levelRank(level);
    return rank < OFF_RANK && rank >= this.#threshold;
  }

  readonly trace = (message: string, detail?: unknown): void => this.#log('TRACE', message, detail);
  readonly debug = (message: string, detail?: unknown): void => this.#log('DEBUG', message, detail);
  readonly info = (message: string, detail?: unknown): void => this.#log('INFO', message, detail);
  readonly warn = (message: string, detail?: unknown): void => this.#log('WARN', message, detail);
  readonly error = (message: string, detail?: unknown): void => this.#log('ERROR', message, detail);

  #log(level: RecordLevel, message: string, detail: unknown): void {
    if (levelRank(level) < this.#threshold) return;
    const span = activeSpan();
    const record: LogRecord = span
      ? { level, category: this.category, message, time: new Date(), traceId: span.traceId, spanId: span.spanId }
      : { level, category: this.category, message, time: new Date() };
    this.#emit(detail === undefined ? record : { ...record, detail });
  }
}

type ActiveSpanReader = () => { readonly traceId: string; readonly spanId: string } | undefined;

let activeSpan: ActiveSpanReader = () => undefined;

/** Makes records carry the ids of the active span `reader` gives (tracing does, once an SDK is registered). */
export function readActiveSpansWith(reader: ActiveSpanReader): void {
  activeSpan = reader;
}

/**
 * Holds the root level, per-category levels and the sink, and hands out cached loggers. A category takes
 * the level of its most specific configured dot-separated prefix (`rxrest.params` → `rxrest.params`, then
 * `rxrest`, then the root); each logger keeps its level precomputed and is retuned when levels change.
 *
 * @example
 * const manager = new LogManager({ level: 'WARN', categories: [['rxrest.params', 'DEBUG']] });
 * const records: LogRecord[] = [];
 * manager.setSink((record) => records.push(record));
 * manager.getLogger('rxrest.params').debug('bad ?limit'); // recorded
 * manager.getLogger('rxrest.routing').info('matched');    // dropped (root is WARN)
 */
export class LogManager {
  #rootLevel: LogLevel = 'INFO';
  #categoryLevels = new Map<string, LogLevel>();
  #sink: LogSink = stderrSink;
  readonly #loggers = new Map<string, ManagedLogger>();

  constructor(options: LogLevels & { readonly sink?: LogSink } = {}) {
    this.configure(options);
    if (options.sink) this.#sink = options.sink;
  }

  /** The root level. */
  get level(): LogLevel {
    return this.#rootLevel;
  }

  /** Replaces the root level (when given) and all category levels. */
  configure(levels: LogLevels): void {
    this.#rootLevel = levels.level ?? this.#rootLevel;
    this.#categoryLevels = new Map(levels.categories ?? []);
    this.#retuneAll();
  }

  setLevel(level: LogLevel): void {
    this.#rootLevel = level;
    this.#retuneAll();
  }

  /** Sets one category's level, or removes it (`undefined`) so the category inherits again. */
  setCategoryLevel(category: string, level: LogLevel | undefined): void {
    if (level === undefined) this.#categoryLevels.delete(category);
    else this.#categoryLevels.set(category, level);
    this.#retuneAll();
  }

  /** The effective level of a category. */
  levelOf(category: string): LogLevel {
    for (let name = category; name !== ''; name = name.slice(0, Math.max(0, name.lastIndexOf('.')))) {
      const level = this.#categoryLevels.get(name);
      if (level !== undefined) return level;
    }
    return this.#rootLevel;
  }

  /** The logger of a category, created once and reused. */
  getLogger(category: string): Logger {
    let logger = this.#loggers.get(category);
    if (logger === undefined) {
      logger = new ManagedLogger(category, this.levelOf(category), (record) => this.#write(record));
      this.#loggers.set(category, logger);
    }
    return logger;
  }

  /** Sends records to `sink` from now on (existing loggers included); returns the previous sink. */
  setSink(sink: LogSink): LogSink {
    const previous = this.#sink;
    this.#sink = sink;
    return previous;
  }

  #retuneAll(): void {
    for (const [category, logger] of this.#loggers) logger.retune(this.levelOf(category));
  }

  #write(record: LogRecord): void {
    try {
      this.#sink(record);
    } catch {
      // Logging must never break the code that logs: a failing sink falls back to stderr.
      if (this.#sink !== stderrSink) stderrSink(record);
    }
  }
}

/** The framework's log manager, shared by every module. */
export const logging = new LogManager();

/**
 * Applies `framework.log.level` and every `framework.log.category."<name>".level` of a configuration.
 *
 * @example
 * configureLogging(loadConfig());
 */
export function configureLogging(config: LoggingConfiguration, manager: LogManager = logging): void {
  manager.configure({ level: config.get('framework.log.level'), categories: config.logCategoryLevels() });
}
