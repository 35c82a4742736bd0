import { ConfigError } from '../../lib/config/config-error';
import { resolveConfig } from '../../lib/config/resolve-config';

const FILE = '/app/application.properties';

function file(entries: Record<string, string>) {
  return { path: FILE, entries: new Map(Object.entries(entries)) };
}

function problemsOf(run: () => unknown): ConfigError['problems'] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveConfig', () => {
  it('uses the defaults and the prod profile when nothing is set', () => {
    const config = resolveConfig();
    expect(config.profile).toBe('prod');
    expect(config.get('framework.http.port')).toBe(8080);
    expect(config.get('framework.profile')).toBe('prod');
  });

  it('ranks program overrides over the environment over the file', () => {
    const inputs = {
      file: file({ 'framework.http.port': '1', 'framework.http.host': 'file-host', 'framework.rest.path': '/file' }),
      env: { FRAMEWORK_HTTP_PORT: '2', FRAMEWORK_HTTP_HOST: 'env-host' },
      overrides: { 'framework.http.port': 3 },
    };
    const config = resolveConfig(inputs);
    expect(config.get('framework.http.port')).toBe(3);
    expect(config.get('framework.http.host')).toBe('env-host');
    expect(config.get('framework.rest.path')).toBe('/file');
  });

  it('reads schema keys from the environment even when the file does not name them', () => {
    const config = resolveConfig({ env: { FRAMEWORK_HTTP_ENABLE_COMPRESSION: 'true' } });
    expect(config.get('framework.http.enable-compression')).toBe(true);
  });

  it('applies profile keys only in their profile, over the plain key of the same source', () => {
    const entries = {
      'framework.http.port': '8000',
      '%dev.framework.http.port': '9000',
      '%test.framework.http.port': '7000',
    };
    expect(resolveConfig({ file: file(entries) }).get('framework.http.port')).toBe(8000);
    expect(resolveConfig({ file: file(entries), profile: 'dev' }).get('framework.http.port')).toBe(9000);
    expect(resolveConfig({ file: file(entries), profile: 'test' }).get('framework.http.port')).toBe(7000);
  });

  it('applies the keys of every profile framework.profile lists, the later profile winning', () => {
    // As @IfBuildProfile reads it: framework.profile=dev,test is both profiles at once.
    const entries = {
      'framework.profile': 'dev,test',
      '%dev.framework.http.port': '9000',
      '%dev.framework.http.host': '127.0.0.1',
      '%test.framework.http.port': '7000',
      '%prod.framework.rest.path': '/prod',
    };
    const config = resolveConfig({ file: file(entries), env: { _TEST_FRAMEWORK_REST_SSE_KEEP_ALIVE: '1s' } });
    expect(config.profiles).toEqual(['dev', 'test']);
    expect(config.get('framework.http.port')).toBe(7000);
    expect(config.get('framework.http.host')).toBe('127.0.0.1');
    expect(config.get('framework.rest.sse.keep-alive')).toBe(1000);
    expect(config.get('framework.rest.path')).toBe('/');
  });

  it('reads profile keys from the environment with a leading underscore', () => {
    const config = resolveConfig({
      profile: 'dev',
      env: { _DEV_FRAMEWORK_HTTP_PORT: '9001', FRAMEWORK_HTTP_PORT: '1' },
    });
    expect(config.get('framework.http.port')).toBe(9001);
  });

  it('lets a plain environment key beat a profile key of the file', () => {
    const config = resolveConfig({
      profile: 'dev',
      file: file({ '%dev.framework.http.port': '9000' }),
      env: { FRAMEWORK_HTTP_PORT: '1234' },
    });
    expect(config.get('framework.http.port')).toBe(1234);
  });

  it('chooses the profile: forced > overrides > FRAMEWORK_PROFILE > file > prod', () => {
    const fileProfile = file({ 'framework.profile': 'from-file' });
    expect(resolveConfig({ file: fileProfile }).profile).toBe('from-file');
    expect(resolveConfig({ file: fileProfile, env: { FRAMEWORK_PROFILE: 'from-env' } }).profile).toBe('from-env');
    const withOverride = {
      file: fileProfile,
      env: { FRAMEWORK_PROFILE: 'from-env' },
      overrides: { 'framework.profile': 'over' },
    };
    expect(resolveConfig(withOverride).profile).toBe('over');
    expect(resolveConfig({ ...withOverride, profile: 'forced' }).profile).toBe('forced');
    expect(resolveConfig({ ...withOverride, profile: 'forced' }).get('framework.profile')).toBe('forced');
  });

  it('treats a blank value as unset, so the default applies', () => {
    const config = resolveConfig({ file: file({ 'framework.http.port': '9000' }), env: { FRAMEWORK_HTTP_PORT: '  ' } });
    expect(config.get('framework.http.port')).toBe(8080);
  });

  it('collects per-category log levels from every source, quoted or not', () => {
    const config = resolveConfig({
      file: file({
        'framework.log.category."rxrest.params".level': 'debug',
        'framework.log.category.rxrest.level': 'WARN',
      }),
      env: { FRAMEWORK_LOG_CATEGORY__RXREST_PARAMS__LEVEL: 'TRACE' },
      overrides: { 'framework.log.category."app".level': 'ERROR' },
    });
    expect(Object.fromEntries(config.logCategoryLevels())).toEqual({
      'rxrest.params': 'TRACE',
      rxrest: 'WARN',
      app: 'ERROR',
    });
  });

  it('takes a category level from the environment alone, its name in upper case with dots as underscores', () => {
    // What a container is given to turn one category up without touching application.properties.
    const config = resolveConfig({
      env: {
        FRAMEWORK_LOG_CATEGORY__RXREST_SECURITY__LEVEL: 'DEBUG',
        FRAMEWORK_LOG_CATEGORY__APP__LEVEL: 'warn',
        FRAMEWORK_LOG_LEVEL: 'ERROR',
      },
    });
    expect(Object.fromEntries(config.logCategoryLevels())).toEqual({ 'rxrest.security': 'DEBUG', app: 'WARN' });
    expect(config.get('framework.log.level')).toBe('ERROR');
  });

  it('names the variable of a bad category level from the environment', () => {
    const problems = problemsOf(() => resolveConfig({ env: { FRAMEWORK_LOG_CATEGORY__APP__LEVEL: 'LOUD' } }));
    expect(problems).toEqual([
      expect.objectContaining({
        key: 'framework.log.category."app".level',
        value: 'LOUD',
        source: 'FRAMEWORK_LOG_CATEGORY__APP__LEVEL',
      }),
    ]);
  });

  it('uses environment variables for user keys present in the file, and exposes user keys as text', () => {
    const config = resolveConfig({
      file: file({ 'feature.enabled': 'false', 'greeting.name': 'file', 'framework.http.port': '8081' }),
      env: { FEATURE_ENABLED: 'true', UNRELATED: 'x' },
      overrides: { answer: 42 },
    });
    expect(config.getUser('feature.enabled')).toBe('true');
    expect(config.getUser('greeting.name')).toBe('file');
    expect(config.getUser('answer')).toBe('42');
    expect(config.getUser('framework.http.port')).toBe('8081');
    expect(config.getUser('framework.http.limits.max-body-size')).toBe('10M');
    expect(config.getUser('framework.http.static.directory')).toBeUndefined();
    expect(config.getUser('not.set')).toBeUndefined();
  });

  it('looks a user key up in the environment on demand, profile first', () => {
    const config = resolveConfig({ profile: 'dev', env: { MY_FLAG: 'plain', _DEV_OTHER_FLAG: 'dev' } });
    expect(config.getUser('my.flag')).toBe('plain');
    expect(config.getUser('other.flag')).toBe('dev');
  });

  it('reports every invalid value at once with its key, value, source and expectation', () => {
    const problems = problemsOf(() =>
      resolveConfig({
        file: file({ 'framework.http.enable-compression': 'maybe', 'framework.log.category."rxrest".level': 'LOUD' }),
        env: { FRAMEWORK_HTTP_PORT: 'eighty' },
        overrides: { 'framework.rest.stream.buffer-size': 0 },
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          key: 'framework.http.port',
          value: 'eighty',
          source: 'FRAMEWORK_HTTP_PORT',
          expected: 'expected an integer from 0 to 65535',
        },
        { key: 'framework.http.enable-compression', value: 'maybe', source: FILE, expected: 'expected true or false' },
        {
          key: 'framework.rest.stream.buffer-size',
          value: '0',
          source: 'program',
          expected:
            'expected a size of at least 16K (bytes, or K, M, G... as powers of 1024): a byte budget such as 64M, no longer a count of items',
        },
        expect.objectContaining({ key: 'framework.log.category."rxrest".level', value: 'LOUD', source: FILE }),
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it('formats the error message with one line per problem', () => {
    expect(() => resolveConfig({ env: { FRAMEWORK_HTTP_PORT: 'eighty' } })).toThrow(
      'framework.http.port: "eighty" (from FRAMEWORK_HTTP_PORT) — expected an integer from 0 to 65535',
    );
    expect(() => resolveConfig({ env: { FRAMEWORK_HTTP_PORT: 'eighty' } })).toThrow(ConfigError);
  });

  it('rejects unknown framework keys, suggesting the closest known key', () => {
    const problems = problemsOf(() =>
      resolveConfig({
        file: file({ 'framework.http.prot': '80', 'framework.zzz': '1' }),
        overrides: { 'framework.rest.pth': '/' },
      }),
    );
    expect(problems).toEqual([
      {
        key: 'framework.rest.pth',
        value: '/',
        source: 'program',
        expected: 'expected a known framework.* key, did you mean "framework.rest.path"?',
      },
      {
        key: 'framework.http.prot',
        value: '80',
        source: FILE,
        expected: 'expected a known framework.* key, did you mean "framework.http.port"?',
      },
      { key: 'framework.zzz', value: '1', source: FILE, expected: 'expected a known framework.* key' },
    ]);
  });

  it('rejects unknown framework keys under inactive profiles too, but not their values', () => {
    const problems = problemsOf(() =>
      resolveConfig({ file: file({ '%dev.framework.htp.port': '1', '%dev.framework.http.port': 'not-checked' }) }),
    );
    expect(problems.map((problem) => problem.key)).toEqual(['%dev.framework.htp.port']);
  });

  it('points malformed per-category keys at the right shape', () => {
    const problems = problemsOf(() => resolveConfig({ file: file({ 'framework.log.category."x".lvl': 'DEBUG' }) }));
    expect(problems[0]?.expected).toContain('framework.log.category."<category>".level');
  });

  it('ignores unrelated environment variables and keeps user keys free-form', () => {
    const config = resolveConfig({
      env: { FRAMEWORK_HTTP_PROT: 'x', PATH: '/bin' },
      file: file({ 'app.anything': '%%' }),
    });
    expect(config.get('framework.http.port')).toBe(8080);
    expect(config.getUser('app.anything')).toBe('%%');
  });
});
