/**
 * Serves Swagger UI for the OpenAPI document, its assets read from the swagger-ui-dist package (no CDN: it
 * works on a machine without internet), for requests no resource matched. The page has no inline script, so a
 * Content-Security-Policy allowing only its own origin's scripts covers it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ResponseContext } from '../pipeline/response-context';
import type { UnroutedAnswer } from '../pipeline/request-pipeline';

// The only files the page loads. Scripts carry their charset: without one Chromium reads the bundle as Latin-1 and fails.
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * The page's policy: scripts, styles, fonts and requests from its own origin only (what the page loads, and the
 * document and "Try it out" calls), nothing framed or framing it. Swagger UI sets style attributes and draws some
 * icons from `data:` URLs, so those two are allowed; no inline or evaluated script is.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The script that starts Swagger UI on the document: a file of its own, for the policy allows no inline script. */
const INITIALIZER = 'swagger-initializer.js';

function initializer(documentPath: string): string {
  return `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(`${documentPath}?format=json`)}, dom_id: '#swagger-ui', deepLinking: true });\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, base: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="${base}/favicon-32x32.png">
<link rel="stylesheet" href="${base}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}/swagger-ui-bundle.js" charset="utf-8"></script>
<script src="${base}/${INITIALIZER}" charset="utf-8"></script>
</body>
</html>
`;
}

/** Answers `GET` of `path` (with or without a final `/`) with the page, and of `path/<asset>` with the asset, read once. */
export function swaggerUiAnswer(path: string, documentPath: string, title: string): UnroutedAnswer {
  const base = path.replace(/\/+$/, '');
  const directory = dirname(require.resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Uint8Array>();
  let html: string | undefined;
  return (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return undefined;
    if (ctx.rawPath === base || ctx.rawPath === `${base}/`) {
      ctx.response = new ResponseContext(200, (html ??= page(title, base)), undefined, 'text/html; charset=utf-8');
      ctx.response.headers.set('content-security-policy', PAGE_POLICY);
      return Promise.resolve(ctx);
    }
    if (ctx.rawPath === `${base}/${INITIALIZER}`) {
      ctx.response = new ResponseContext(200, initializer(documentPath), undefined, ASSETS['swagger-ui-bundle.js']);
      return Promise.resolve(ctx);
    }
    const file = ctx.rawPath.startsWith(`${base}/`) ? ctx.rawPath.slice(base.length + 1) : '';
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return undefined;
    let bytes = cache.get(file);
    if (!bytes) cache.set(file, (bytes = new Uint8Array(readFileSync(join(directory, file)))));
    ctx.response = new ResponseContext(200, bytes, undefined, type);
    ctx.response.headers.set('cache-control', 'public, max-age=3600');
    return Promise.resolve(ctx);
  };
}
