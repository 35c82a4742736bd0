/** Decides which classes make the application, and creates one instance of each (resources are singletons). */
import type { Application } from '../decorators/application';
import { INTERCEPTOR } from '../decorators/interceptors';
import { EXCEPTION_MAPPER, PROVIDER, REQUEST_FILTER, RESPONSE_FILTER } from '../decorators/providers';
import { findClassMeta, registeredClasses, type ClassMeta, type Tags } from '../metadata/store';
import { locate, type ProblemCollector } from '../errors/definition-error';
import { HEALTH_KINDS } from '../decorators/health';
import { SOCKET_PATH } from '../decorators/websocket';
import { MCP_SERVER } from '../decorators/mcp';
import type { Unit } from '../metadata/unit';

export type { Unit };

export interface DiscoveryOptions {
  readonly classes?: readonly Function[];
  readonly application?: Application;
  /** Decides build conditions (`@IfBuildProfile`...); classes it refuses are left out. */
  readonly include?: (type: Function, meta: ClassMeta) => boolean;
}

function declaresEndpoints(meta: ClassMeta): boolean {
  for (const method of meta.methods.values()) if (method.httpMethods.length > 0) return true;
  return false;
}

/**
 * The application's classes: `Application.getClasses()` (build conditions then ignored),
 * else the given list, else every decorated class imported so far; plus `getSingletons()` as they are.
 */
export function discover(options: DiscoveryOptions, problems: ProblemCollector): Unit[] {
  const listed = options.application?.getClasses();
  const classes = listed ?? options.classes ?? registeredClasses();
  const include = listed ? () => true : (options.include ?? (() => true));
  const units: Unit[] = [];
  const seen = new Set<Function>();
  const add = (type: Function, make: () => object) => {
    if (seen.has(type)) return;
    seen.add(type);
    const meta = findClassMeta(type);
    if (!meta || !include(type, meta)) return;
    if (meta.tags.get(PROVIDER)?.constrainedTo === 'client') return;
    const isResource = meta.path !== undefined || declaresEndpoints(meta);
    const contributes =
      isResource ||
      meta.tags.has(PROVIDER) ||
      meta.tags.has(INTERCEPTOR) ||
      meta.tags.has(HEALTH_KINDS) ||
      meta.tags.has(SOCKET_PATH) ||
      meta.tags.has(MCP_SERVER) ||
      [...meta.methods.values()].some((m) => hasCallbackTag(m.tags));
    if (!contributes) return;
    const instance = problems.attempt(locate(type), make);
    if (instance) units.push({ type, meta, instance, isResource });
  };
  for (const singleton of options.application?.getSingletons() ?? []) add(singleton.constructor, () => singleton);
  for (const type of classes) {
    add(type, () => {
      if (type.length > 0) throw new Error('a resource or provider class needs a constructor without parameters');
      return new (type as new () => object)();
    });
  }
  return units;
}

function hasCallbackTag(tags: Tags): boolean {
  return tags.has(REQUEST_FILTER) || tags.has(RESPONSE_FILTER) || tags.has(EXCEPTION_MAPPER);
}
