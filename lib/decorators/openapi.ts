/** Decorators that describe endpoints in the OpenAPI document; they record metadata only. */
import type { ZodType } from 'zod';
import { metaKey, type MetaKey } from '../metadata/store';
import { memberMeta, memberTag, tagFactory, type ClassOrMethodDecorator } from './decorator-types';

/** A response an endpoint documents: its status, what it means, and the zod schema of its body (of each item, for a stream). */
export interface APIResponseOptions {
  readonly status?: number;
  readonly description?: string;
  /** A zod schema, or a class with a `static schema`. */
  readonly schema?: ZodType | Function;
  /**
   * The media type of the body: by default the method's `@Produces` for its own answers, `application/json` for
   * others with a schema. With no schema, a `text/*` type is described as a string (an exception mapper's text).
   */
  readonly mediaType?: string;
}

export interface OperationOptions {
  readonly summary?: string;
  readonly description?: string;
}

export const OPENAPI_TAGS = metaKey<readonly string[]>('openapi-tags');
export const OPENAPI_OPERATION = metaKey<OperationOptions>('openapi-operation');
export const OPENAPI_RESPONSES = metaKey<readonly APIResponseOptions[]>('openapi-responses');
export const OPENAPI_HIDDEN = metaKey<boolean>('openapi-hidden');

function tag<T>(key: MetaKey<T>, value: (previous: T | undefined) => T): ClassOrMethodDecorator {
  return (target, propertyKey) => {
    const { tags } = memberMeta(target, propertyKey);
    tags.set(key, value(tags.get(key)));
  };
}

/**
 * Groups the endpoints of a class or a method under these tags (default: the class's name).
 *
 * @example
 * \@Path('fruits') @Tag('Fruits')
 * class FruitResource {}
 */
export function Tag(...names: string[]): ClassOrMethodDecorator {
  return tag(OPENAPI_TAGS, (previous) => [...(previous ?? []), ...names]);
}

/** The summary and description of an endpoint. */
export const Operation: (options: OperationOptions) => ClassOrMethodDecorator = tagFactory(
  memberTag,
  OPENAPI_OPERATION,
);

/**
 * A response the endpoint documents; repeatable. Without `status` it describes the endpoint's own
 * success status. For a stream, `schema` is the schema of each item. On an exception mapper (a
 * `@ServerExceptionMapper` method, or an `ExceptionMapper` provider class) it documents what the mapper answers,
 * on every operation the mapper reaches (its class's for a local one, all of them for a global one).
 *
 * @example
 * \@GET @Path('{name}') @APIResponse({ schema: Fruit }) @APIResponse({ status: 404, description: 'No such fruit' })
 * one(\@RestPath() name: string): Fruit { ... }
 */
export function APIResponse(options: APIResponseOptions): ClassOrMethodDecorator {
  return tag(OPENAPI_RESPONSES, (previous) => [...(previous ?? []), options]);
}

/** Leaves a class or an endpoint out of the OpenAPI document. */
export const Hidden: ClassOrMethodDecorator = memberTag(OPENAPI_HIDDEN, true);
