import { availableParallelism } from 'node:os';
import { FRAMEWORK_KEYS, readFrameworkSettings, type FrameworkConfig } from '../../lib/config/schema';
import { describeConfiguration } from '../../lib/config/describe-configuration';

const OPTIONAL_KEYS = [
  'framework.http.static.directory',
  'framework.http.limits.max-multipart-file-size',
  'framework.http.public-base-url',
  'framework.openapi.info.title',
  'framework.openapi.info.version',
  'framework.openapi.info.description',
  'framework.http.ssl.certificate.file',
  'framework.http.ssl.certificate.key-file',
  'framework.http.ssl.certificate.key-password',
  'framework.security.jwt.jwks-url',
  'framework.security.jwt.public-key-file',
  'framework.security.jwt.issuer',
  'framework.security.jwt.audience',
  'framework.http.cors.access-control-max-age',
  'framework.websocket.max-message-fragments',
];

describe('readFrameworkSettings', () => {
  it('gives every key a default, except the keys explicitly optional', () => {
    const defaults = readFrameworkSettings().values;
    const withoutDefault = FRAMEWORK_KEYS.filter((key) => defaults[key] === undefined);
    expect(withoutDefault.sort()).toEqual([...OPTIONAL_KEYS].sort());
    const documentedOptional = describeConfiguration()
      .filter((setting) => setting.key.startsWith('framework.') && setting.default === undefined)
      .map((setting) => setting.key);
    expect(documentedOptional).toEqual(expect.arrayContaining(OPTIONAL_KEYS));
  });

  it('parses the documented defaults into typed values', () => {
    const defaults: FrameworkConfig = readFrameworkSettings().values;
    expect(defaults).toMatchObject({
      'framework.profile': 'prod',
      'framework.rest.path': '/',
      'framework.rest.fail-on-duplicate': true,
      'framework.rest.worker.max-concurrency': 64,
      'framework.rest.blocked-warning-ms': 200,
      'framework.rest.sse.keep-alive': 15_000,
      'framework.rest.stream.buffer-size': 64 * 1024 * 1024,
      'framework.rest.stream.overflow': 'fail',
      'framework.http.limits.max-body-size': 10 * 1024 * 1024,
      'framework.http.limits.max-form-attribute-size': 2048,
      'framework.http.limits.max-parts': 1000,
      'framework.http.limits.max-fields': 1000,
      'framework.http.limits.max-header-size': 16 * 1024,
      'framework.http.body.uploads-directory': 'uploads',
      'framework.http.body.delete-uploaded-files-on-end': true,
      'framework.http.enable-compression': false,
      'framework.http.compress-media-types': [
        'text/html',
        'text/plain',
        'text/xml',
        'text/css',
        'text/javascript',
        'application/javascript',
      ],
      'framework.http.compression-level': 6,
      'framework.http.compressors': ['br', 'gzip', 'deflate'],
      'framework.http.proxy.proxy-address-forwarding': false,
      'framework.http.port': 8080,
      'framework.http.host': '0.0.0.0',
      'framework.http.request-timeout': 300_000,
      'framework.http.headers-timeout': 60_000,
      'framework.http.keep-alive-timeout': 5_000,
      'framework.shutdown.timeout': 10_000,
      'framework.legacy.gzip.enabled': false,
      'framework.legacy.gzip.max-input': 10 * 1024 * 1024,
      'framework.json.fail-on-unknown-properties': false,
      'framework.json.write-dates-as-timestamps': false,
      'framework.log.level': 'INFO',
    });
  });

  it('reads text and typed program values alike', () => {
    const fromText = readFrameworkSettings({
      'framework.http.port': ' 9000 ',
      'framework.http.enable-compression': 'TRUE',
      'framework.rest.sse.keep-alive': '500ms',
      'framework.http.limits.max-body-size': '1k',
      'framework.http.compressors': ' gzip , ,br ',
      'framework.log.level': 'debug',
    }).values;
    expect(fromText).toMatchObject({
      'framework.http.port': 9000,
      'framework.http.enable-compression': true,
      'framework.rest.sse.keep-alive': 500,
      'framework.http.limits.max-body-size': 1024,
      'framework.http.compressors': ['gzip', 'br'],
      'framework.log.level': 'DEBUG',
    });
    const fromProgram = readFrameworkSettings({
      'framework.http.port': 0,
      'framework.http.enable-compression': true,
    }).values;
    expect(fromProgram['framework.http.port']).toBe(0);
    expect(fromProgram['framework.http.enable-compression']).toBe(true);
  });

  it.each([
    ['framework.http.port', '65536', 'expected an integer from 0 to 65535'],
    ['framework.http.port', '80.5', 'expected an integer from 0 to 65535'],
    ['framework.rest.worker.max-concurrency', '0', 'expected an integer of at least 1'],
    ['framework.http.compression-level', '10', 'expected an integer from 1 to 9'],
    ['framework.http.enable-compression', 'yes', 'expected true or false'],
    ['framework.rest.sse.keep-alive', '15 seconds', 'expected a duration'],
    ['framework.http.limits.max-body-size', '10MB', 'expected a size matching [0-9]+[KkMmGgTtPpEeZzYy]?'],
    ['framework.rest.stream.overflow', 'FAIL', 'expected one of fail, drop-oldest, drop-newest, latest'],
    ['framework.http.compressors', 'gzip,zstd', 'expected a comma-separated list of br, gzip, deflate'],
    ['framework.log.level', 'verbose', 'expected one of TRACE, DEBUG, INFO, WARN, ERROR, OFF'],
    ['framework.rest.path', '', 'expected a non-empty string'],
    ['framework.http.workers', '0', 'expected auto or an integer of at least 1'],
  ])('rejects %s=%j with a message saying what is expected', (key, value, expected) => {
    const { problems } = readFrameworkSettings({ [key]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.key).toBe(key);
    expect(problems[0]?.expected).toContain(expected);
  });

  it('reads framework.http.workers=auto as the processors this process may use', () => {
    expect(readFrameworkSettings({ 'framework.http.workers': 'AUTO' }).values['framework.http.workers']).toBe(
      availableParallelism(),
    );
  });

  it('types each key from the schema', () => {
    const config = readFrameworkSettings().values;
    const port: number = config['framework.http.port'];
    const types: readonly string[] = config['framework.http.compress-media-types'];
    const staticDirectory: string | undefined = config['framework.http.static.directory'];
    // @ts-expect-error a port is a number, not a string
    const wrong: string = config['framework.http.port'];
    expect([port, types.length, staticDirectory, wrong]).toEqual([8080, 6, undefined, 8080]);
  });
});
