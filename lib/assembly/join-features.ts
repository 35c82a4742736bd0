/** The features of one application, built: their parts joined phase by phase in feature order, and their packages. */
import type { EndpointJoin, EndpointJoins, Feature, FeatureParts, PackageNeed } from '../feature/feature';
import { chain, inOrder } from '../pipeline/chain';
import type { FeatureSteps } from '../pipeline/request-pipeline';
import type { BuildScope } from './build-scope';
import { dateFormatsDeclared } from '../decorators/params';
import type { ProblemCollector } from '../errors/definition-error';
import { jsonFormatsDeclared } from '../json/json-decorators';
import { canLoadPackages, isInstalled } from '../runtime/load-package';
import { runtimeName } from '../runtime/runtime-name';

export class JoinedFeatures {
  readonly #built: { readonly feature: Feature; readonly parts: FeatureParts }[] = [];
  readonly #scope: BuildScope;

  /** Builds `features` in order; a repeated name is a build problem. */
  constructor(features: readonly Feature[], scope: BuildScope) {
    this.#scope = scope;
    const names = new Set<string>();
    for (const feature of features) {
      if (names.has(feature.name)) scope.problems.add(`the feature ${feature.name}`, 'is listed twice');
      names.add(feature.name);
      // A configuration error stops the build at once, as it would without features (ConfigError names the key).
      const parts = feature.build(scope);
      if (parts) this.#built.push({ feature, parts });
    }
  }

  /** The steps of `plan`'s endpoint; a feature joining a phase it did not declare is a build problem. */
  readonly joins: EndpointJoins = (plan) => {
    const joined: EndpointJoin[] = [];
    for (const { feature, parts } of this.#built)
      for (const join of parts.endpoint?.(plan) ?? []) {
        if (feature.phases.includes(join.phase)) joined.push(join);
        else this.#scope.problems.add(`the feature ${feature.name}`, `joins ${join.phase} without declaring it`);
      }
    return {
      at: (phase) => joined.filter((join) => join.phase === phase).map((join) => join.step),
      answers: [...new Set(joined.flatMap((join) => join.answers ?? []))].sort(),
    };
  };

  /** The optional packages the features need in this application (asked once the endpoints are compiled). */
  packages(): PackageNeed[] {
    return this.#built.flatMap(({ feature }) => feature.packages?.(this.#scope) ?? []);
  }

  /** Starts what the features hold, once the build found no problem. */
  start(): void {
    for (const { parts } of this.#built) parts.start?.();
  }

  /** What the features do on every request, phase by phase, in feature order. */
  steps(): FeatureSteps {
    const parts = this.#built.map((built) => built.parts);
    const receive = parts.map((part) => part.receive).filter((stage) => stage !== undefined);
    return {
      first: receive.length <= 1 ? receive[0] : chain(receive),
      around: parts.map((part) => part.around).filter((around) => around !== undefined),
      finish: inOrder(parts.map((part) => part.finish)),
      written: parts.map((part) => part.written).filter((written) => written !== undefined),
      observe: inOrder(parts.map((part) => part.complete)),
      unrouted: parts.flatMap((part) => part.unrouted?.() ?? []),
    };
  }

  shutdown(graceMs: number): void {
    for (const { parts } of this.#built) parts.shutdown?.(graceMs);
  }

  async close(): Promise<void> {
    await Promise.all(this.#built.map(({ parts }) => parts.close?.()));
  }
}

/** The optional packages the core needs in this application (the features name their own). */
export function corePackages(): PackageNeed[] {
  return dateFormatsDeclared() || jsonFormatsDeclared()
    ? [{ name: 'date-fns', feature: 'a date pattern (@DateFormat or @JsonFormat)' }]
    : [];
}

/** A problem for each needed package not installed (an optional peer dependency): the build fails, not a request. */
export function checkPackages(needs: readonly PackageNeed[], problems: ProblemCollector): void {
  const reported = new Set<string>();
  for (const { name, feature } of needs) {
    if (reported.has(name) || isInstalled(name === 'swagger-ui-dist' ? `${name}/package.json` : name)) continue;
    reported.add(name);
    problems.add(
      `the package ${name}`,
      canLoadPackages()
        ? `${feature} needs it, and it is not installed: npm install ${name} (an optional peer dependency of rxrest)`
        : `${feature} needs it, and ${runtimeName()} cannot load it: this bundle has no require(); hand it in with build({ packages }) (see docs/runtimes.md)`,
    );
  }
}
