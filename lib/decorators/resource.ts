/** Decorators that declare resources: paths, HTTP methods and media types. They only record metadata. */
import { classMeta, metaKey, methodMeta, ownerOf } from '../metadata/store';
import { memberMeta, memberName, type ClassOrMethodDecorator, type MethodDecoratorFn } from './decorator-types';

export type { MethodDecoratorFn } from './decorator-types';

export const APPLICATION_PATH = metaKey<string>('application-path');

/**
 * Declares a resource class (on a class) or a sub-path of it (on a method). Template variables are
 * written `{name}` or `{name: regex}`.
 *
 * @example
 * \@Path('fruits')
 * class FruitResource {
 *   \@GET \@Path('{id: \\d+}') get(@RestPath() id: number) {}
 * }
 */
export function Path(path: string): ClassOrMethodDecorator {
  return (target, propertyKey) => {
    memberMeta(target, propertyKey).path = path;
  };
}

/** Makes every endpoint relative to `path`; put it on the {@link Application} subclass. */
export function ApplicationPath(path: string): (target: Function) => void {
  return (target) => classMeta(target).tags.set(APPLICATION_PATH, path);
}

/** Returns a decorator declaring the HTTP method `name`, for methods beyond the standard ones. */
export function HttpMethod(name: string): MethodDecoratorFn {
  const method = name.toUpperCase();
  return (target, propertyKey) => {
    methodMeta(ownerOf(target), memberName(propertyKey)).httpMethods.push(method);
  };
}

/** Obtains a representation; safe and idempotent. */
export const GET: MethodDecoratorFn = HttpMethod('GET');
/** Like GET without a body; automatic from GET unless declared. */
export const HEAD: MethodDecoratorFn = HttpMethod('HEAD');
/** Creates a resource. */
export const POST: MethodDecoratorFn = HttpMethod('POST');
/** Replaces or creates; idempotent. */
export const PUT: MethodDecoratorFn = HttpMethod('PUT');
/** Deletes; idempotent. */
export const DELETE: MethodDecoratorFn = HttpMethod('DELETE');
/** Describes a resource; automatic (an `Allow` list) unless declared. */
export const OPTIONS: MethodDecoratorFn = HttpMethod('OPTIONS');
/** Updates partially; not idempotent. */
export const PATCH: MethodDecoratorFn = HttpMethod('PATCH');

/** The media types a class's methods (or one method) can produce; a method's list replaces its class's. */
export function Produces(...mediaTypes: string[]): ClassOrMethodDecorator {
  return (target, propertyKey) => {
    memberMeta(target, propertyKey).produces = mediaTypes;
  };
}

/** The media types a class's methods (or one method) accept as a request body. */
export function Consumes(...mediaTypes: string[]): ClassOrMethodDecorator {
  return (target, propertyKey) => {
    memberMeta(target, propertyKey).consumes = mediaTypes;
  };
}
