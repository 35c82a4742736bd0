// The static directory is found where it is at each request: one made after the first request, or a symbolic link a
// deployment switches to another release, is served. Its real path was read once, at the first request, and kept:
// missing then, every file stayed 404 until a restart; switched, every file of the new release was 404 as outside.
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GET, Path, RestApplication, resolveConfig } from '../../lib';
import { tempDir } from '../support/temp-dir';

@Path('api')
class Api {
  @GET get(): string {
    return 'api';
  }
}

const root = tempDir('static-root');
const serving = (directory: string) =>
  RestApplication.build({
    classes: [Api],
    config: resolveConfig({ overrides: { 'framework.http.static.directory': directory } }),
  });
const get = async (app: ReturnType<typeof serving>, path: string) => {
  const res = await app.fetch(new Request(`http://localhost${path}`));
  return [res.status, await res.text()];
};

describe('StaticFiles root', () => {
  it('serves a directory made after the first request', async () => {
    const app = serving(join(root, 'late'));
    expect((await get(app, '/a.txt'))[0]).toBe(404);
    mkdirSync(join(root, 'late'));
    writeFileSync(join(root, 'late', 'a.txt'), 'late');
    expect(await get(app, '/a.txt')).toEqual([200, 'late']);
  });

  it('serves the release a symbolic link was switched to, and still nothing outside it', async () => {
    for (const release of ['v1', 'v2']) {
      mkdirSync(join(root, release));
      writeFileSync(join(root, release, 'a.txt'), release);
    }
    symlinkSync(join(root, 'v1'), join(root, 'current'));
    symlinkSync(join(root, 'v1', 'a.txt'), join(root, 'v2', 'old.txt'));
    const app = serving(join(root, 'current'));
    expect(await get(app, '/a.txt')).toEqual([200, 'v1']);
    // Switched as deployments do: a new link renamed over the old one.
    symlinkSync(join(root, 'v2'), join(root, 'next'));
    renameSync(join(root, 'next'), join(root, 'current'));
    expect(await get(app, '/a.txt')).toEqual([200, 'v2']);
    expect((await get(app, '/old.txt'))[0]).toBe(404);
  });
});
