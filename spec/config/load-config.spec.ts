import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../lib/config/config-error';
import { loadConfig } from '../../lib/config/load-config';

describe('loadConfig', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'rxrest-config-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads application.properties from the directory, with profile keys', () => {
    writeFileSync(
      join(directory, 'application.properties'),
      '# app\nframework.http.port=8000\n%dev.framework.http.port=9000\ngreeting = hello \\\n  world\n',
    );
    expect(loadConfig({ directory, env: {} }).get('framework.http.port')).toBe(8000);
    const dev = loadConfig({ directory, env: { FRAMEWORK_PROFILE: 'dev' } });
    expect(dev.profile).toBe('dev');
    expect(dev.get('framework.http.port')).toBe(9000);
    expect(dev.getUser('greeting')).toBe('hello world');
  });

  it('is fine without application.properties', () => {
    expect(loadConfig({ directory, env: {} }).get('framework.http.port')).toBe(8080);
  });

  it('requires a file named explicitly to exist', () => {
    expect(() => loadConfig({ directory, env: {}, file: 'missing.properties' })).toThrow(ConfigError);
  });

  it('reads a named file relative to the directory', () => {
    writeFileSync(join(directory, 'other.properties'), 'framework.http.host=127.0.0.1');
    expect(loadConfig({ directory, env: {}, file: 'other.properties' }).get('framework.http.host')).toBe('127.0.0.1');
  });

  it('names the file path as the source of a bad value, and ranks env and program above it', () => {
    const path = join(directory, 'application.properties');
    writeFileSync(path, 'framework.http.limits.max-body-size=10MB\nframework.http.port=1\nframework.http.host=file');
    expect(() => loadConfig({ directory, env: {} })).toThrow(`(from ${path})`);
    writeFileSync(path, 'framework.http.port=1\nframework.http.host=file');
    const config = loadConfig({
      directory,
      env: { FRAMEWORK_HTTP_HOST: 'env' },
      overrides: { 'framework.http.port': 2 },
    });
    expect([config.get('framework.http.port'), config.get('framework.http.host')]).toEqual([2, 'env']);
  });

  it('reports a malformed properties file as a ConfigError naming the file and line', () => {
    writeFileSync(join(directory, 'application.properties'), 'a=1\nb=\\uZZZZ');
    expect(() => loadConfig({ directory, env: {} })).toThrow(/application\.properties.*line 2/);
  });

  it('reads properties given as text instead of any file (a Worker bundles its own), ranked as a file', () => {
    writeFileSync(join(directory, 'application.properties'), 'framework.http.port=1');
    const properties = 'framework.http.port=8000\n%dev.framework.http.port=9000\nframework.http.host=text\n';
    expect(loadConfig({ directory, env: {}, properties }).get('framework.http.port')).toBe(8000);
    const dev = loadConfig({ directory, env: { FRAMEWORK_PROFILE: 'dev', FRAMEWORK_HTTP_HOST: 'env' }, properties });
    expect([dev.get('framework.http.port'), dev.get('framework.http.host')]).toEqual([9000, 'env']);
    expect(() => loadConfig({ env: {}, properties: 'framework.http.port=eighty' })).toThrow(
      '(from the properties text)',
    );
    expect(() => loadConfig({ env: {}, properties: 'b=\\uZZZZ' })).toThrow(/properties text.*line 1/);
    expect(() => loadConfig({ directory, env: {}, file: 'other.properties', properties })).toThrow(
      /other\.properties.*no file beside the `properties` text/,
    );
  });

  it('uses process.env and the working directory by default', () => {
    const saved = process.env['FRAMEWORK_HTTP_COMPRESSION_LEVEL'];
    process.env['FRAMEWORK_HTTP_COMPRESSION_LEVEL'] = '9';
    try {
      expect(loadConfig().get('framework.http.compression-level')).toBe(9);
    } finally {
      if (saved === undefined) delete process.env['FRAMEWORK_HTTP_COMPRESSION_LEVEL'];
      else process.env['FRAMEWORK_HTTP_COMPRESSION_LEVEL'] = saved;
    }
  });
});
