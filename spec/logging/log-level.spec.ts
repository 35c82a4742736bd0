import { LOG_LEVELS, levelRank, parseLogLevel } from '../../lib/logging/log-level';

describe('levelRank', () => {
  it('orders TRACE < DEBUG < INFO < WARN < ERROR < OFF', () => {
    const ranks = LOG_LEVELS.map(levelRank);
    expect(ranks).toEqual([0, 1, 2, 3, 4, 5]);
    expect(LOG_LEVELS).toEqual(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'OFF']);
  });
});

describe('parseLogLevel', () => {
  it('reads level names in any case', () => {
    expect(parseLogLevel('debug')).toBe('DEBUG');
    expect(parseLogLevel(' Off ')).toBe('OFF');
  });

  it('returns undefined for other text', () => {
    expect(parseLogLevel('verbose')).toBeUndefined();
    expect(parseLogLevel('')).toBeUndefined();
  });
});
