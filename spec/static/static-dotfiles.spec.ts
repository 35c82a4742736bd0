// Files whose path has a segment starting with a dot (`.env`, `.git/config`, `.htpasswd`) are what a deployment leaves
// in a directory by accident, never what it means to publish: they were served. They now answer 404, as if absent
// (Express's serve-static default), except under `/.well-known/` (RFC 8615), unless
// `framework.http.static.serve-dotfiles` says otherwise.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RestApplication, resolveConfig, type RunningServer } from '../../lib';
import { send } from '../support/http';
import { tempDir } from '../support/temp-dir';
import { within } from '../support/until';

const site = tempDir('static-dotfiles');
writeFileSync(join(site, '.env'), 'SECRET=1');
mkdirSync(join(site, '.git'));
writeFileSync(join(site, '.git', 'config'), '[core]');
mkdirSync(join(site, 'assets'));
writeFileSync(join(site, 'assets', '.htpasswd'), 'admin:x');
writeFileSync(join(site, 'assets', 'app.js'), 'app');
mkdirSync(join(site, '.well-known'));
writeFileSync(join(site, '.well-known', 'security.txt'), 'Contact: mailto:security@example.com');
writeFileSync(join(site, '.well-known', '.secret'), 'hidden');

const serve = (overrides: Record<string, string> = {}) =>
  RestApplication.build({
    classes: [],
    config: resolveConfig({ overrides: { 'framework.http.static.directory': site, ...overrides } }),
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });

describe('static files whose path has a dot segment', () => {
  let server: RunningServer;
  let allowing: RunningServer;
  beforeAll(async () => {
    server = await serve();
    allowing = await serve({ 'framework.http.static.serve-dotfiles': 'true' });
  });
  afterAll(async () => {
    await server.close();
    await allowing.close();
  });

  const reply = (base: RunningServer, path: string, method = 'GET') =>
    within(send(`${base.url}${path}`, method), `${method} ${path}`);

  it('answers 404 by default, in any encoding and for every method', async () => {
    for (const path of ['/.env', '/.git/config', '/.git/', '/assets/.htpasswd', '/%2eenv', '/assets/%2Ehtpasswd']) {
      const answer = await reply(server, path);
      expect([path, answer.status, answer.body.includes('SECRET') || answer.body.includes('admin')]).toEqual([
        path,
        404,
        false,
      ]);
    }
    expect((await reply(server, '/.env', 'HEAD')).status).toBe(404);
    expect((await reply(server, '/.env', 'OPTIONS')).status).toBe(404);
    expect((await reply(server, '/assets/app.js')).body).toBe('app');
  });

  it('serves /.well-known/, but not a dotfile inside it', async () => {
    expect((await reply(server, '/.well-known/security.txt')).body).toBe('Contact: mailto:security@example.com');
    expect((await reply(server, '/.well-known/.secret')).status).toBe(404);
    expect((await reply(server, '/assets/.well-known/security.txt')).status).toBe(404);
  });

  it('serves them when framework.http.static.serve-dotfiles is true', async () => {
    expect((await reply(allowing, '/.env')).body).toBe('SECRET=1');
    expect((await reply(allowing, '/.git/config')).body).toBe('[core]');
    expect((await reply(allowing, '/.well-known/.secret')).body).toBe('hidden');
  });
});
