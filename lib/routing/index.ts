// Public surface of path routing: templates, request paths, the router.
export { compilePathTemplate, joinPaths, matchTemplate, readParams } from './path-template';
export { expandTemplate } from './expand-template';
export type { PathTemplate, TemplateCapture } from './path-template';
export { TemplateError } from './template-parser';
export { parseRequestPath } from './request-path';
export type { RequestPath } from './request-path';
export { Router } from './router';
export type { RouteMatch } from './router';
export { decodeRoutedValue, encodePathSegment } from './percent-encoding';
