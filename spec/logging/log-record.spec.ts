import { formatLogRecord, stderrSink } from '../../lib/logging/log-record';

const time = new Date('2026-11-22T00:00:00.000Z');

describe('formatLogRecord', () => {
  it('writes time, padded level, category and message on one line', () => {
    expect(formatLogRecord({ level: 'WARN', category: 'rxrest.build', message: 'message', time })).toBe(
      '2026-11-22T00:00:00.000Z WARN  [rxrest.build] message',
    );
    expect(formatLogRecord({ level: 'ERROR', category: 'c', message: 'm', time })).toBe(
      '2026-11-22T00:00:00.000Z ERROR [c] m',
    );
  });

  it("puts an Error detail's stack and causes on the following lines", () => {
    const error = new Error('outer', { cause: new TypeError('inner') });
    const lines = formatLogRecord({
      level: 'ERROR',
      category: 'rxrest.errors',
      message: 'failed',
      time,
      detail: error,
    }).split('\n');
    expect(lines[0]).toBe('2026-11-22T00:00:00.000Z ERROR [rxrest.errors] failed');
    expect(lines[1]).toBe('Error: outer');
    expect(lines.some((line) => line.startsWith('    at '))).toBe(true);
    expect(lines).toContain('Caused by: TypeError: inner');
  });

  it('prints other details inline', () => {
    expect(formatLogRecord({ level: 'INFO', category: 'c', message: 'm', time, detail: { port: 8080 } })).toBe(
      '2026-11-22T00:00:00.000Z INFO  [c] m { port: 8080 }',
    );
  });
});

describe('stderrSink', () => {
  it('writes one formatted line to process.stderr', () => {
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      stderrSink({ level: 'INFO', category: 'c', message: 'hello', time });
      expect(write).toHaveBeenCalledWith('2026-11-22T00:00:00.000Z INFO  [c] hello\n');
    } finally {
      write.mockRestore();
    }
  });
});
