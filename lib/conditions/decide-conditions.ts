/** Decides build conditions (`@IfBuildProfile`...) and `@EndpointDisabled` against a configuration. */
import type { Config } from '../config';
import {
  BUILD_CONDITIONS,
  ENDPOINT_DISABLED,
  type BuildCondition,
  type BuildPropertyOptions,
  type ProfileSelector,
} from '../decorators/build-conditions';
import type { ClassMeta } from '../metadata/store';

function matchesProfiles(selector: ProfileSelector, active: ReadonlySet<string>): boolean {
  if (typeof selector === 'string') return active.has(selector);
  const anyOf = selector.anyOf ?? [];
  const allOf = selector.allOf ?? [];
  return (anyOf.length === 0 || anyOf.some((name) => active.has(name))) && allOf.every((name) => active.has(name));
}

/** An unset property counts as `enableIfMissing`. */
function propertyHolds(property: BuildPropertyOptions, config: Config, equalMeans: boolean): boolean {
  const value = config.getUser(property.name);
  if (value === undefined) return property.enableIfMissing ?? false;
  return (value === property.stringValue) === equalMeans;
}

function holds(condition: BuildCondition, config: Config, profiles: ReadonlySet<string>): boolean {
  const positive = condition.kind.startsWith('if-');
  if ('profiles' in condition) return matchesProfiles(condition.profiles, profiles) === positive;
  return propertyHolds(condition.property, config, positive);
}

/** The build step's inclusion test: every build condition a class carries holds in `config`. */
export function buildConditionFilter(config: Config): (type: Function, meta: ClassMeta) => boolean {
  const profiles = new Set(config.profiles);
  return (_type, meta) =>
    (meta.tags.get(BUILD_CONDITIONS) ?? []).every((condition) => holds(condition, config, profiles));
}

/** The property equals `stringValue`, or it is unset and `disableIfMissing` is true. */
export function isEndpointDisabled(meta: ClassMeta, config: Config): boolean {
  const options = meta.tags.get(ENDPOINT_DISABLED);
  if (options === undefined) return false;
  const value = config.getUser(options.name);
  return value === undefined ? (options.disableIfMissing ?? false) : value === options.stringValue;
}
