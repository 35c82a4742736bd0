/** Serves Swagger UI from the swagger-ui-dist package (no CDN), with no inline script, for a strict CSP. */
import { nodeBuiltin } from '../runtime/node-builtins';
import { ResponseContext } from '../context/response-context';
import type { UnroutedAnswer } from '../context/settle';

const nodeFs = () => nodeBuiltin('node:fs', 'Swagger UI');
const nodePath = () => nodeBuiltin('node:path', 'Swagger UI');

// The only files the page loads. Scripts carry their charset: without one Chromium reads the bundle as Latin-1 and fails.
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Own origin only; Swagger UI sets style attributes and draws icons from `data:` URLs, so those are allowed. */
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

/** A file of its own: the policy allows no inline script. */
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

export function swaggerUiAnswer(path: string, documentPath: string, title: string): UnroutedAnswer {
  const base = path.replace(/\/+$/, '');
  const directory = nodePath().dirname(require.resolve('swagger-ui-dist/package.json'));
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
    if (!bytes) cache.set(file, (bytes = new Uint8Array(nodeFs().readFileSync(nodePath().join(directory, file)))));
    ctx.response = new ResponseContext(200, bytes, undefined, type);
    ctx.response.headers.set('cache-control', 'public, max-age=3600');
    return Promise.resolve(ctx);
  };
}
