/** Turns link targets into absolute web links, filling template variables from an entity. */
import { REST_LINK_ID } from '../decorators/links';
import type { WebLink } from '../http/link-header';
import { classChain } from '../metadata/store';
import { expandTemplate } from '../routing/expand-template';
import type { LinkTarget } from './link-registry';

const linkIds = new WeakMap<Function, string | undefined>();

/** The property marked `@RestLinkId` on `type` or a superclass (`undefined` when none). */
export function linkIdProperty(type: Function): string | undefined {
  if (!linkIds.has(type)) {
    const properties = classChain(type).flatMap((meta) => [...meta.properties.values()]);
    linkIds.set(type, properties.find((property) => property.tags.has(REST_LINK_ID))?.name);
  }
  return linkIds.get(type);
}

/** The value of template variable `name` in `entity`: `{id}` from the `@RestLinkId` property when there is one. */
export function templateValue(entity: object, name: string): string | undefined {
  const idProperty = name === 'id' ? linkIdProperty(entity.constructor) : undefined;
  const value: unknown = (entity as Record<string, unknown>)[idProperty ?? name];
  return value === undefined || value === null ? undefined : String(value);
}

/** An entity's own class, unless it is a plain object (parsed JSON, a literal): then the `declared` type. */
export function entityClass(entity: object, declared: Function | undefined): Function | undefined {
  const own: unknown = entity.constructor;
  return typeof own === 'function' && own !== Object ? own : declared;
}

function toLink({ rel, title, type }: LinkTarget, href: string): WebLink {
  return { href, rel, ...(title !== undefined && { title }), ...(type !== undefined && { type }) };
}

/** Links to `targets`, absolute on `origin`; their variables are filled from `entity`, or left as `{name}`. */
export function makeLinks(targets: readonly LinkTarget[], origin: string, entity?: object): WebLink[] {
  return targets.map((target) => {
    // A template without variables is all literal text: no need to parse it per request.
    if (target.variables.length === 0) return toLink(target, origin + target.template);
    const value = entity === undefined ? () => undefined : (name: string) => templateValue(entity, name);
    return toLink(target, origin + expandTemplate(target.template, value));
  });
}
