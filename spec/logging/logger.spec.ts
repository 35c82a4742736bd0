import { resolveConfig } from '../../lib/config/resolve-config';
import type { LogRecord } from '../../lib/logging/log-record';
import { configureLogging, LogManager, logging } from '../../lib/logging/logger';

function capture(manager: LogManager): LogRecord[] {
  const records: LogRecord[] = [];
  manager.setSink((record) => records.push(record));
  return records;
}

describe('LogManager', () => {
  it('writes records at or above the root level to the sink, with category and time', () => {
    const manager = new LogManager({ level: 'WARN' });
    const records = capture(manager);
    const logger = manager.getLogger('rxrest.build');
    logger.info('dropped');
    logger.warn('kept', { detail: 1 });
    logger.error('also kept');
    expect(records.map((record) => [record.level, record.message])).toEqual([
      ['WARN', 'kept'],
      ['ERROR', 'also kept'],
    ]);
    expect(records[0]).toMatchObject({ category: 'rxrest.build', detail: { detail: 1 } });
    expect(records[0]?.time).toBeInstanceOf(Date);
    expect('detail' in records[1]!).toBe(false);
  });

  it('writes TRACE records only at TRACE', () => {
    const manager = new LogManager({ level: 'DEBUG' });
    const records = capture(manager);
    manager.getLogger('rxrest.build').trace('hidden');
    manager.configure({ level: 'TRACE' });
    manager.getLogger('rxrest.build').trace('shown', { step: 1 });
    expect(records.map((record) => [record.level, record.message, record.detail])).toEqual([
      ['TRACE', 'shown', { step: 1 }],
    ]);
  });

  it("lets the most specific configured dot-separated prefix decide a category's level", () => {
    const manager = new LogManager({
      level: 'ERROR',
      categories: [
        ['rxrest', 'INFO'],
        ['rxrest.params', 'TRACE'],
      ],
    });
    expect(manager.levelOf('rxrest.params')).toBe('TRACE');
    expect(manager.levelOf('rxrest.params.query')).toBe('TRACE');
    expect(manager.levelOf('rxrest.routing')).toBe('INFO');
    expect(manager.levelOf('rxrestless')).toBe('ERROR');
    expect(manager.levelOf('app')).toBe('ERROR');
  });

  it('answers isEnabled from the precomputed level, never for OFF', () => {
    const manager = new LogManager({ level: 'DEBUG' });
    const logger = manager.getLogger('x');
    expect(logger.isEnabled('TRACE')).toBe(false);
    expect(logger.isEnabled('DEBUG')).toBe(true);
    expect(logger.isEnabled('OFF')).toBe(false);
  });

  it('silences everything at OFF', () => {
    const manager = new LogManager({ level: 'OFF' });
    const records = capture(manager);
    manager.getLogger('x').error('nothing');
    expect(records).toEqual([]);
  });

  it('returns the same cached logger and retunes it when levels change', () => {
    const manager = new LogManager({ level: 'INFO' });
    const logger = manager.getLogger('rxrest.params');
    expect(manager.getLogger('rxrest.params')).toBe(logger);
    expect(logger.isEnabled('DEBUG')).toBe(false);
    manager.setCategoryLevel('rxrest', 'DEBUG');
    expect(logger.isEnabled('DEBUG')).toBe(true);
    manager.setCategoryLevel('rxrest', undefined);
    expect(logger.isEnabled('DEBUG')).toBe(false);
    manager.setLevel('TRACE');
    expect(logger.isEnabled('TRACE')).toBe(true);
    manager.configure({ level: 'ERROR', categories: [['rxrest.params', 'WARN']] });
    expect([manager.level, logger.isEnabled('WARN'), logger.isEnabled('INFO')]).toEqual(['ERROR', true, false]);
  });

  it('sends records of existing loggers to a new sink and returns the previous one', () => {
    const manager = new LogManager();
    const logger = manager.getLogger('x');
    const first: LogRecord[] = [];
    const second: LogRecord[] = [];
    manager.setSink((record) => first.push(record));
    const previous = manager.setSink((record) => second.push(record));
    logger.info('to second');
    previous({ level: 'INFO', category: 'x', message: 'direct', time: new Date() });
    expect(second.map((record) => record.message)).toEqual(['to second']);
    expect(first.map((record) => record.message)).toEqual(['direct']);
  });

  it('never throws into the caller when the sink fails, falling back to stderr', () => {
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const manager = new LogManager({
        sink: () => {
          throw new Error('sink down');
        },
      });
      expect(() => manager.getLogger('x').warn('still logged')).not.toThrow();
      expect(String(write.mock.calls[0]?.[0])).toContain('WARN  [x] still logged');
    } finally {
      write.mockRestore();
    }
  });
});

describe('configureLogging', () => {
  it('applies the root and per-category levels of a Config', () => {
    const manager = new LogManager();
    const config = resolveConfig({
      overrides: { 'framework.log.level': 'error', 'framework.log.category."rxrest.params".level': 'DEBUG' },
    });
    configureLogging(config, manager);
    expect(manager.level).toBe('ERROR');
    expect(manager.getLogger('rxrest.params').isEnabled('DEBUG')).toBe(true);
    expect(manager.getLogger('rxrest.routing').isEnabled('WARN')).toBe(false);
  });

  it('configures the shared default manager when none is given', () => {
    const before = logging.level;
    try {
      configureLogging(resolveConfig({ overrides: { 'framework.log.level': 'TRACE' } }));
      expect(logging.level).toBe('TRACE');
    } finally {
      logging.configure({ level: before, categories: [] });
    }
  });
});
