import { Config } from '../../lib/config/config';
import { resolveConfig } from '../../lib/config/resolve-config';
import { readFrameworkSettings } from '../../lib/config/schema';
import type { LogLevel } from '../../lib/logging/log-level';
import type { LoggingConfiguration } from '../../lib/logging/logger';

describe('Config', () => {
  it('returns typed values for framework keys', () => {
    const config = resolveConfig({
      overrides: { 'framework.http.port': 1, 'framework.rest.stream.overflow': 'latest' },
    });
    const port: number = config.get('framework.http.port');
    const overflow: 'fail' | 'drop-oldest' | 'drop-newest' | 'latest' = config.get('framework.rest.stream.overflow');
    expect([port, overflow]).toEqual([1, 'latest']);
    // @ts-expect-error unknown keys are not framework keys
    expect(config.get('framework.http.prot')).toBeUndefined();
  });

  it('cannot be changed through what it returns or what it was built from', () => {
    const raw = new Map([['user.key', 'a']]);
    const categories = new Map<string, LogLevel>([['rxrest', 'DEBUG']]);
    const config = new Config({
      profile: 'prod',
      values: readFrameworkSettings().values,
      raw,
      logCategoryLevels: categories,
      fallback: () => undefined,
    });
    raw.set('user.key', 'b');
    categories.set('other', 'ERROR');
    (config.logCategoryLevels() as Map<string, LogLevel>).set('x', 'TRACE');
    expect(config.getUser('user.key')).toBe('a');
    expect([...config.logCategoryLevels().keys()]).toEqual(['rxrest']);
    expect(() => (config.get('framework.http.compressors') as string[]).push('zstd')).toThrow(TypeError);
    expect(config.get('framework.http.compressors')).toEqual(['br', 'gzip', 'deflate']);
  });

  it("satisfies the logging module's view of a configuration", () => {
    const view: LoggingConfiguration = resolveConfig({ overrides: { 'framework.log.level': 'warn' } });
    expect(view.get('framework.log.level')).toBe('WARN');
  });
});
