/** The stage after an `@InjectRestLinks` endpoint's method: `Link` header lines, then HAL form when asked for. */
import { INJECT_REST_LINKS, RestLinkType } from '../decorators/links';
import type { MethodMeta } from '../metadata/store';
import { formatLink, type WebLink } from '../http/link-header';
import type { MediaType } from '../http/media-type';
import type { StageFn } from '../context/settle';
import type { EndpointInfo } from '../context/request-context';
import type { Unit } from '../metadata/unit';
import { HalEntityWrapper } from '../hal/hal-entity-wrapper';
import { HalService } from './hal-service';
import { RestMediaType } from '../hal/rest-media-type';
import { wrapHal } from './wrap-hal';
import { declaredEntityType } from './collect-link-targets';
import { entityClass } from './make-links';
import { bindLinkContext, linkOrigin, RestLinksProvider, type LinkContext } from './rest-links-provider';

/** A list carries its type links only; with `RestLinkType.INSTANCE` an instance carries every link of its type. */
export function endpointLinks(
  links: RestLinksProvider,
  mode: RestLinkType,
  declared: Function | undefined,
  entity: unknown,
): WebLink[] {
  const value = entity instanceof HalEntityWrapper ? (entity.entity as unknown) : entity;
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    const type = declared ?? (typeof first === 'object' && first !== null ? entityClass(first, undefined) : undefined);
    return type ? links.getTypeLinks(type) : [];
  }
  const isInstance = typeof value === 'object' && value !== null;
  const type = isInstance ? entityClass(value, declared) : declared;
  if (!type) return [];
  return mode === RestLinkType.INSTANCE && isInstance ? links.getInstanceLinks(value, type) : links.getTypeLinks(type);
}

/** Ties the endpoint to the application's links; only an `@InjectRestLinks` method gets a stage. */
export function linkStage(
  unit: Unit,
  method: MethodMeta,
  info: EndpointInfo,
  context: LinkContext,
  produces: readonly MediaType[],
): StageFn | undefined {
  bindLinkContext(info, context);
  const mode = method.tags.get(INJECT_REST_LINKS);
  if (mode === undefined) return undefined;
  const declared = declaredEntityType(unit, method);
  const producesHal = produces.some((type) => `${type.type}/${type.subtype}` === RestMediaType.APPLICATION_HAL_JSON);
  return (ctx) => {
    const response = ctx.response;
    if (!response) return ctx;
    const links = new RestLinksProvider(context.registry, linkOrigin(ctx));
    for (const link of endpointLinks(links, mode, declared, response.entity))
      response.headers.add('link', formatLink(link));
    if (producesHal) wrapHal(response, ctx.negotiated, new HalService(links), declared);
    return ctx;
  };
}
