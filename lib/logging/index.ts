// Public surface of the logging module.
export { LOG_CATEGORIES, type LogCategory } from './log-level';
export { LOG_LEVELS, levelRank, parseLogLevel, type LogLevel, type RecordLevel } from './log-level';
export { formatLogRecord, stderrSink, type LogRecord, type LogSink } from './log-record';
export {
  configureLogging,
  LogManager,
  logging,
  type Logger,
  type LoggingConfiguration,
  type LogLevels,
} from './logger';
