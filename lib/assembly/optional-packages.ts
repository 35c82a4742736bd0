/**
 * Packages that only some features need are optional peer dependencies: an application that uses such a feature
 * without the package installed fails its build with a problem naming the package to install, instead of failing on
 * its first request.
 */
import { dateFormatsDeclared } from '../decorators/params';
import type { ProblemCollector } from '../errors/definition-error';
import type { PackageNeed } from '../feature/feature';
import { jsonFormatsDeclared } from '../json/json-decorators';
import { canLoadPackages, isInstalled } from '../runtime/load-package';
import { runtimeName } from '../runtime/runtime-name';

/** The optional packages the core needs in this application (the features name their own). */
export function corePackages(): PackageNeed[] {
  return dateFormatsDeclared() || jsonFormatsDeclared()
    ? [{ name: 'date-fns', feature: 'a date pattern (@DateFormat or @JsonFormat)' }]
    : [];
}

/** A problem for each needed package that is not installed. */
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
