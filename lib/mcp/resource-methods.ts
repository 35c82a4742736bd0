/**
 * `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and `resources/unsubscribe`.
 * A resource the caller may not read is neither listed nor read (as if it did not exist).
 */
import { map } from 'rxjs/internal/operators/map';
import { catchError } from 'rxjs/internal/operators/catchError';
import { NotFoundException } from '../errors/web-application-exception';
import { findResource, type ResourceCatalog } from './compile-resources';
import { McpProtocolError, RESOURCE_NOT_FOUND, type JsonRpcRequest } from './json-rpc';
import { allows } from './method-guard';
import { toReadResult } from './resource-contents';
import { requiredText, type MethodHandler, type RequestScope } from './method-handler';
import { outputOf } from './tool-call';

function notFound(uri: string): McpProtocolError {
  return new McpProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

function read(catalog: ResourceCatalog, request: JsonRpcRequest, scope: RequestScope): unknown {
  const uri = requiredText(request, 'uri');
  const found = findResource(catalog, uri);
  if (!found || !allows(found.resource.guard.rule, scope.security)) throw notFound(uri);
  const { resource, variables } = found;
  const value = resource.method.invoke({ input: variables ?? {}, call: undefined, security: scope.security });
  return outputOf(value).pipe(
    map((contents) => toReadResult(uri, resource.mimeType, contents)),
    // A method that says the resource is not there (a template variable naming nothing) answers as MCP says.
    catchError((error: unknown) => {
      throw error instanceof NotFoundException ? notFound(uri) : error;
    }),
  );
}

/** The resource methods of a server over its resources. */
export function resourceMethods(catalog: ResourceCatalog): [string, MethodHandler][] {
  return [
    [
      'resources/list',
      (_request, { security }) => ({
        resources: [...catalog.fixed.values()].filter((r) => allows(r.guard.rule, security)).map((r) => r.definition),
      }),
    ],
    [
      'resources/templates/list',
      (_request, { security }) => ({
        resourceTemplates: catalog.templates.filter((r) => allows(r.guard.rule, security)).map((r) => r.definition),
      }),
    ],
    ['resources/read', (request, scope) => read(catalog, request, scope)],
    [
      'resources/subscribe',
      (request, { session }) => session.subscribe(requiredText(request, 'uri'), true).then(() => ({})),
    ],
    [
      'resources/unsubscribe',
      (request, { session }) => session.subscribe(requiredText(request, 'uri'), false).then(() => ({})),
    ],
  ];
}
