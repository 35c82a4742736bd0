/** Build step for web links: finds every `@RestLink` endpoint and records it as a target of its entity type. */
import { Observable } from 'rxjs/internal/Observable';
import { REST_LINK } from '../decorators/links';
import { readDesignType } from '../metadata/reflect-shim';
import type { MethodMeta } from '../metadata/store';
import { RestResponse } from '../response/rest-response';
import { HalCollectionWrapper } from '../hal/hal-collection-wrapper';
import { HalEntityWrapper } from '../hal/hal-entity-wrapper';
import { joinPaths } from '../routing/path-template';
import { parseTemplate } from '../routing/template-parser';
import { locate, type ProblemCollector } from '../errors/definition-error';
import type { Unit } from '../metadata/unit';
import { LinkRegistry } from './link-registry';

// Return types that say nothing about the entity: containers (HAL wrappers too) erase their element type,
// primitives are no entities.
const ERASED: ReadonlySet<unknown> = new Set<unknown>([
  undefined,
  Object,
  Function,
  Array,
  Promise,
  Observable,
  RestResponse,
  Response,
  String,
  Number,
  Boolean,
  Symbol,
  BigInt,
  Set,
  Map,
  HalEntityWrapper,
  HalCollectionWrapper,
]);

/** The entity class a method's links belong to: `@RestLink({ entityType })`, else the declared return type. */
export function declaredEntityType(unit: Unit, method: MethodMeta): Function | undefined {
  const explicit = method.tags.get(REST_LINK)?.entityType;
  if (explicit) return explicit;
  const returned = readDesignType('design:returntype', unit.type.prototype, method.name);
  return typeof returned === 'function' && !ERASED.has(returned) ? returned : undefined;
}

/** The link target `method` declares; `undefined` when it is none (a problem recorded, or a template left to the endpoint's). */
function linkTarget(unit: Unit, method: MethodMeta, applicationPath: string, problems: ProblemCollector) {
  const options = method.tags.get(REST_LINK);
  if (!options) return undefined;
  const where = locate(unit.type, method.name);
  if (method.httpMethods.length === 0)
    return void problems.add(
      where,
      '@RestLink marks a method without an HTTP method decorator; only endpoints can be link targets',
    );
  const entityType = declaredEntityType(unit, method);
  if (!entityType)
    return void problems.add(
      where,
      '@RestLink needs an entity type: the return type does not name a class (arrays, promises, void and unions such as T | undefined erase it); set entityType',
    );
  const template = joinPaths(applicationPath, unit.meta.path ?? '', method.path ?? '');
  let variables: string[];
  try {
    variables = parseTemplate(template).flatMap((token) => (token.kind === 'variable' ? [token.name] : []));
  } catch {
    return undefined;
  }
  return { ...options, rel: options.rel ?? method.name, template, variables, entityType };
}

/** A target without an entity type, or no endpoint, is a problem; malformed templates are the endpoint compiler's. */
export function collectLinkTargets(
  units: readonly Unit[],
  applicationPath: string,
  problems: ProblemCollector,
): LinkRegistry {
  const registry = new LinkRegistry();
  for (const unit of units) {
    for (const method of unit.meta.methods.values()) {
      const target = linkTarget(unit, method, applicationPath, problems);
      if (target) registry.add(target);
    }
  }
  return registry;
}
