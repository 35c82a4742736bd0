// The API page in a real browser. Chromium (Debian's package, installed by .ci/install-tools) is started
// headless by this spec for each look (spec/support/chromium.ts, in a folder of its own): `--dump-dom` prints the
// page once its scripts have run (within a virtual-time budget), `--screenshot` saves what a person would see under
// spec/openapi/output/. The page's console goes to stderr (`--enable-logging=stderr`), where Chromium reports every
// Content-Security-Policy violation.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { buildApp, call } from '../support/app';
import { runChromiumLogged } from '../support/chromium';
import { tempDir } from '../support/temp-dir';

const output = join(__dirname, 'output');
/** Runs the browser (headless, in a folder of its own) without blocking this process, which serves the page it loads. */
function browse(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return runChromiumLogged(['--virtual-time-budget=10000', ...args], 90_000);
}

/** The page's console lines that report a Content-Security-Policy violation. */
const violations = (log: string): string[] => log.split('\n').filter((line) => /Content.Security.Policy/i.test(line));

/** What of Chromium's network log (`--log-net-log`) this spec reads. */
interface NetLog {
  readonly constants: { readonly logEventTypes: Record<string, number> };
  readonly events: readonly {
    readonly type: number;
    readonly params?: { readonly url?: string; readonly network_isolation_key?: string };
  }[];
}

/**
 * The URLs requested for a page served from 127.0.0.1 (the page, its assets, what its scripts fetch, wherever they
 * point), told from the browser's own background requests (updates, sign-in) by the page's network isolation key.
 */
function pageRequests(log: NetLog): string[] {
  const start = log.constants.logEventTypes.URL_REQUEST_START_JOB;
  const urls = log.events
    .filter(
      (event) => event.type === start && event.params?.network_isolation_key === 'http://127.0.0.1 http://127.0.0.1',
    )
    .map((event) => event.params!.url!);
  return [...new Set(urls)];
}

describe('Swagger UI', () => {
  const netLogDir = tempDir('swagger-net-log');
  let server: RunningServer;
  beforeAll(async () => {
    server = await buildSamples({ 'framework.openapi.ui.always-include': true }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
  });
  afterAll(() => server.close());

  it('renders every operation of the samples in a headless browser, with no outside network and no CSP violation, and is saved as a screenshot', async () => {
    // Every host but the server's own fails to resolve, and the browser's network log lists every URL it asked for.
    const netLog = join(netLogDir, 'net-log.json');
    const { stdout: dom, stderr } = await browse([
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
      `--log-net-log=${netLog}`,
      '--enable-logging=stderr',
      '--v=0',
      '--dump-dom',
      `${server.url}/q/swagger-ui`,
    ]);
    expect((await fetch(`${server.url}/q/swagger-ui`)).headers.get('content-security-policy')).toContain(
      "script-src 'self'",
    );
    expect(violations(stderr)).toEqual([]);
    const requested = pageRequests(JSON.parse(readFileSync(netLog, 'utf8')) as NetLog);
    expect(requested).toContain(`${server.url}/q/openapi?format=json`);
    expect(requested.filter((url) => !url.startsWith(`${server.url}/`))).toEqual([]);
    const paths = [...dom.matchAll(/data-path="([^"]+)"/g)].map((match) => match[1]);
    expect(paths).toEqual(
      expect.arrayContaining(['/fruits', '/cheeses/{type}{variant}', '/streams/ticks', '/multipart']),
    );
    expect(dom).toContain('OAS 3.2');
    mkdirSync(output, { recursive: true });
    await browse([
      '--window-size=1280,1600',
      `--screenshot=${join(output, 'swagger-ui.png')}`,
      `${server.url}/q/swagger-ui`,
    ]);
  }, 120_000);
});

describe('the Swagger UI route', () => {
  it('serves the page and its assets from swagger-ui-dist, scripts with their charset', async () => {
    const app = buildApp([], { 'framework.profile': 'test' });
    const page = await call(app, '/q/swagger-ui');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    const html = await page.text();
    expect(html).toContain('<meta charset="utf-8">');
    // No inline script: every <script> names its file.
    expect([...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1])).toEqual([
      ' src="/q/swagger-ui/swagger-ui-bundle.js" charset="utf-8"',
      ' src="/q/swagger-ui/swagger-initializer.js" charset="utf-8"',
    ]);
    const initializer = await call(app, '/q/swagger-ui/swagger-initializer.js');
    expect(initializer.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await initializer.text()).toContain('"/q/openapi?format=json"');
    const script = await call(app, '/q/swagger-ui/swagger-ui-bundle.js');
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(100_000);
    expect((await call(app, '/q/swagger-ui/swagger-ui.css')).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
    expect((await call(app, '/q/swagger-ui/package.json')).status).toBe(404);
  });

  it('is on in the dev and test profiles, off in prod unless framework.openapi.ui.always-include', async () => {
    expect((await call(buildApp([], { 'framework.profile': 'dev' }), '/q/swagger-ui/')).status).toBe(200);
    // Several profiles at once: test among them is enough.
    expect((await call(buildApp([], { 'framework.profile': 'local,test' }), '/q/swagger-ui/')).status).toBe(200);
    expect((await call(buildApp([], {}), '/q/swagger-ui')).status).toBe(404);
    expect((await call(buildApp([], { 'framework.openapi.ui.always-include': true }), '/q/swagger-ui')).status).toBe(
      200,
    );
    expect(
      (await call(buildApp([], { 'framework.openapi.ui.path': '/api-docs', 'framework.profile': 'dev' }), '/api-docs'))
        .status,
    ).toBe(200);
  });
});
