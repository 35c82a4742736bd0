/** Decides which classes make the application, and creates one instance of each (resources are singletons). */
import { buildConditionFilter, isEndpointDisabled } from '../conditions/decide-conditions';
import type { Config } from '../config';
import { INTERCEPTOR } from '../decorators/interceptors';
import { EXCEPTION_MAPPER, PROVIDER, REQUEST_FILTER, RESPONSE_FILTER } from '../decorators/providers';
import { findClassMeta, registeredClasses, type MetaKey } from '../metadata/store';
import { locate, type ProblemCollector } from '../errors/definition-error';
import { HEALTH_KINDS } from '../decorators/health';
import { SOCKET_PATH } from '../decorators/websocket';
import { MCP_SERVER } from '../decorators/mcp';
import type { Unit } from '../metadata/unit';
import { isServerSide } from '../providers/constrained-to';
import type { BuildOptions } from './build-scope';

export type { Unit };

/** Class tags that make a class part of the application, besides endpoints. */
const CLASS_TAGS: readonly MetaKey<unknown>[] = [PROVIDER, INTERCEPTOR, HEALTH_KINDS, SOCKET_PATH, MCP_SERVER];
/** Method tags that do: a filter or an exception mapper. */
const METHOD_TAGS: readonly MetaKey<unknown>[] = [REQUEST_FILTER, RESPONSE_FILTER, EXCEPTION_MAPPER];

/**
 * The application's classes: `Application.getClasses()` (build conditions then ignored), else the given list, else
 * every decorated class imported so far whose build conditions (`@IfBuildProfile`...) hold in `config`; plus
 * `getSingletons()` as they are. `@EndpointDisabled` removes any of them, listed or not.
 */
export function discover(options: BuildOptions, config: Config, problems: ProblemCollector): Unit[] {
  const listed = options.application?.getClasses();
  const classes = listed ?? options.classes ?? registeredClasses();
  const include = listed ? () => true : buildConditionFilter(config);
  const units: Unit[] = [];
  const seen = new Set<Function>();
  const add = (type: Function, make: () => object) => {
    if (seen.has(type)) return;
    seen.add(type);
    const meta = findClassMeta(type);
    if (!meta || !include(type, meta) || !isServerSide(meta.tags)) return;
    const methods = [...meta.methods.values()];
    const isResource = meta.path !== undefined || methods.some((method) => method.httpMethods.length > 0);
    const contributes =
      isResource ||
      CLASS_TAGS.some((tag) => meta.tags.has(tag)) ||
      methods.some((method) => METHOD_TAGS.some((tag) => method.tags.has(tag)));
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
  return units.filter((unit) => !isEndpointDisabled(unit.meta, config));
}
