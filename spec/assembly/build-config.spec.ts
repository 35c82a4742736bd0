import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, GET, Path, RestApplication } from '../../lib';

@Path('hello')
class Hello {
  @GET get(): string {
    return 'hi';
  }
}

describe('RestApplication.build configuration', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'rxrest-build-config-'));
    writeFileSync(
      join(directory, 'application.properties'),
      'framework.rest.path=/file\n%dev.framework.rest.path=/dev-file\nframework.http.port=7000\n',
    );
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const status = async (app: ReturnType<typeof RestApplication.build>, path: string) =>
    (await app.fetch(new Request(`http://localhost${path}`))).status;

  it('reads application.properties from the directory at build time', async () => {
    const app = RestApplication.build({ classes: [Hello], directory, env: {} });
    expect(await status(app, '/file/hello')).toBe(200);
    expect(app.config.get('framework.http.port')).toBe(7000);
  });

  it('applies %profile keys of the profile chosen at build', async () => {
    expect(
      await status(RestApplication.build({ classes: [Hello], directory, env: {}, profile: 'dev' }), '/dev-file/hello'),
    ).toBe(200);
    expect(
      await status(
        RestApplication.build({ classes: [Hello], directory, env: { FRAMEWORK_PROFILE: 'dev' } }),
        '/dev-file/hello',
      ),
    ).toBe(200);
  });

  it('ranks program overrides over the environment over the file', async () => {
    const env = { FRAMEWORK_REST_PATH: '/env' };
    expect(await status(RestApplication.build({ classes: [Hello], directory, env }), '/env/hello')).toBe(200);
    const program = RestApplication.build({
      classes: [Hello],
      directory,
      env,
      overrides: { 'framework.rest.path': '/program' },
    });
    expect(await status(program, '/program/hello')).toBe(200);
    expect(await status(program, '/env/hello')).toBe(404);
  });

  it('stops the build on an invalid value, naming the key', () => {
    expect(() =>
      RestApplication.build({ classes: [Hello], directory, env: { FRAMEWORK_HTTP_PORT: 'eighty' } }),
    ).toThrow(ConfigError);
    expect(() =>
      RestApplication.build({ classes: [Hello], directory, env: { FRAMEWORK_HTTP_PORT: 'eighty' } }),
    ).toThrow(/framework\.http\.port/);
  });
});
