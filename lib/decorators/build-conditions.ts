/** Decorators that include or exclude a class by build profile, build property or run-time property. */
import { classMeta, metaKey } from '../metadata/store';

/** Profiles a class is tied to: one name, or any / all of several. */
export type ProfileSelector = string | { readonly anyOf?: readonly string[]; readonly allOf?: readonly string[] };

/** A property comparison; `enableIfMissing` decides for an unset property (default false: excluded). */
export interface BuildPropertyOptions {
  readonly name: string;
  readonly stringValue: string;
  readonly enableIfMissing?: boolean;
}

/** `@EndpointDisabled`: the class is removed when the property equals `stringValue` (or is unset and `disableIfMissing`). */
export interface EndpointDisabledOptions {
  readonly name: string;
  readonly stringValue: string;
  readonly disableIfMissing?: boolean;
}

/** All of a class's conditions must hold for it to be included. */
export type BuildCondition =
  | { readonly kind: 'if-profile' | 'unless-profile'; readonly profiles: ProfileSelector }
  | { readonly kind: 'if-property' | 'unless-property'; readonly property: BuildPropertyOptions };

export const BUILD_CONDITIONS = metaKey<BuildCondition[]>('build-conditions');
export const ENDPOINT_DISABLED = metaKey<EndpointDisabledOptions>('endpoint-disabled');

function condition(value: BuildCondition): ClassDecorator {
  return (target) => classMeta(target).tags.push(BUILD_CONDITIONS, value);
}

/**
 * Includes the class only when the profile (`framework.profile`) is the one given (or any/all of those given).
 *
 * @example \@IfBuildProfile('dev') \@Path('debug') class DebugResource {}
 */
export function IfBuildProfile(profiles: ProfileSelector): ClassDecorator {
  return condition({ kind: 'if-profile', profiles });
}

/**
 * Excludes the class when the profile is the one given (or any/all of those given).
 *
 * @example \@UnlessBuildProfile('prod') \@Path('seed') class SeedResource {}
 */
export function UnlessBuildProfile(profiles: ProfileSelector): ClassDecorator {
  return condition({ kind: 'unless-profile', profiles });
}

/**
 * Includes the class only when the configuration property equals `stringValue`.
 *
 * @example \@IfBuildProperty({ name: 'some.prop', stringValue: 'yes' }) class Feature {}
 */
export function IfBuildProperty(property: BuildPropertyOptions): ClassDecorator {
  return condition({ kind: 'if-property', property });
}

/**
 * Excludes the class when the configuration property equals `stringValue`.
 *
 * @example \@UnlessBuildProperty({ name: 'legacy', stringValue: 'off', enableIfMissing: true }) class Legacy {}
 */
export function UnlessBuildProperty(property: BuildPropertyOptions): ClassDecorator {
  return condition({ kind: 'unless-property', property });
}

/**
 * Removes the resource class at start-up when the property equals `stringValue` (404 for its paths);
 * unlike build conditions it also applies to classes listed by `Application.getClasses()`.
 *
 * @example \@EndpointDisabled({ name: 'beta.off', stringValue: 'true' }) \@Path('beta') class Beta {}
 */
export function EndpointDisabled(options: EndpointDisabledOptions): ClassDecorator {
  return (target) => classMeta(target).tags.set(ENDPOINT_DISABLED, options);
}
