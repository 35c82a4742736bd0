// The document's default info (title, version) is the application's own package.json: the one beside its
// application.properties when `build({ directory })` names that directory, else the working directory's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GET, Path, RestApplication } from '../../lib';
import { tempDir } from '../support/temp-dir';

@Path('orders')
class Orders {
  @GET list(): string[] {
    return [];
  }
}

const infoOf = async (app: ReturnType<typeof RestApplication.build>): Promise<unknown> =>
  ((await (await app.fetch(new Request('http://localhost/q/openapi?format=json'))).json()) as { info: unknown }).info;

describe('the OpenAPI document info', () => {
  const directory = tempDir('openapi-info');
  const empty = tempDir('openapi-info-empty');
  beforeAll(() =>
    writeFileSync(join(directory, 'package.json'), JSON.stringify({ name: 'orders-service', version: '4.2.0' })),
  );

  it("names the application by the package.json of build({ directory }), not the working directory's", async () => {
    const app = RestApplication.build({ classes: [Orders], directory });
    expect(await infoOf(app)).toEqual({ title: 'orders-service', version: '4.2.0' });
  });

  it('keeps framework.openapi.info.* above the package.json', async () => {
    const app = RestApplication.build({
      classes: [Orders],
      directory,
      overrides: { 'framework.openapi.info.title': 'Orders', 'framework.openapi.info.version': '1' },
    });
    expect(await infoOf(app)).toEqual({ title: 'Orders', version: '1' });
  });

  it('takes the nearest package.json above that directory, else the defaults', async () => {
    const nested = join(directory, 'config');
    mkdirSync(nested);
    expect(await infoOf(RestApplication.build({ classes: [Orders], directory: nested }))).toEqual({
      title: 'orders-service',
      version: '4.2.0',
    });
    expect(await infoOf(RestApplication.build({ classes: [Orders], directory: empty }))).toEqual({
      title: 'rxrest application',
      version: '0.0.0',
    });
  });
});
