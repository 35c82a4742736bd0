/** Web-link decorators: link targets, link injection and link ids. They only record metadata. */
import { metaKey } from '../metadata/store';
import { memberProperty, methodTag, type MethodDecoratorFn } from './decorator-types';

/** Which links `@InjectRestLinks` adds: the entity type's links only, or those plus the returned instance's. */
export const RestLinkType = {
  /** Links of the entity type whose path has no template variables (such as `list`). */
  TYPE: 'TYPE',
  /** Every link of the entity type, template variables filled from the returned instance. */
  INSTANCE: 'INSTANCE',
} as const;
export type RestLinkType = (typeof RestLinkType)[keyof typeof RestLinkType];

export interface RestLinkOptions {
  /** The relation name; the method name when absent. */
  rel?: string;
  /** The link's `title` parameter. */
  title?: string;
  /** The link's `type` parameter: the media type the target answers with. */
  type?: string;
  /** The entity class this link belongs to, when the return type does not say (arrays, promises, `void`). */
  entityType?: Function;
}

export const REST_LINK = metaKey<RestLinkOptions>('rest-link');
export const INJECT_REST_LINKS = metaKey<RestLinkType>('inject-rest-links');
export const REST_LINK_ID = metaKey<true>('rest-link-id');

/**
 * Marks an endpoint as a link target of its entity type. Endpoints annotated with `@InjectRestLinks`
 * for that type then advertise it.
 *
 * @example
 * \@GET \@Path('{id}') \@RestLink({ rel: 'self' }) \@InjectRestLinks(RestLinkType.INSTANCE)
 * get(@RestPath() id: number): Record { ... }
 */
export function RestLink(options: RestLinkOptions = {}): MethodDecoratorFn {
  return methodTag(REST_LINK, { ...options });
}

/**
 * Adds `Link` headers (one line per link) to the endpoint's responses, and makes it answer HAL when it
 * produces `application/hal+json` and the client asks for it.
 *
 * @example
 * \@GET \@RestLink({ rel: 'list', entityType: Record }) \@InjectRestLinks()
 * list(): Record[] { ... }
 */
export function InjectRestLinks(type: RestLinkType = RestLinkType.TYPE): MethodDecoratorFn {
  return methodTag(INJECT_REST_LINKS, type);
}

/**
 * Marks the entity property that fills a link template's `{id}` variable, when it is not named `id`.
 *
 * @example
 * class Book { \@RestLinkId() isbn = ''; }
 */
export function RestLinkId(): (target: object, propertyKey: string | symbol) => void {
  return (target, propertyKey) => memberProperty(target, propertyKey).tags.set(REST_LINK_ID, true);
}
