/**
 * Packages that only some features need are optional peer dependencies: an application that uses such a feature
 * without the package installed fails its build with a problem naming the package to install, instead of failing on
 * its first request.
 */
import type { Config } from '../config';
import { dateFormatsDeclared } from '../decorators/params';
import type { ProblemCollector } from '../errors/definition-error';
import { jsonFormatsDeclared } from '../json/json-decorators';
import { canLoadPackages, isInstalled } from '../runtime/load-package';
import { runtimeName } from '../runtime/runtime-name';

/** A package, and what needs it in this application. */
export interface PackageNeed {
  readonly name: string;
  readonly feature: string;
}

/** The optional packages the configuration asks for, beside what the build found (`declared`). */
export function packagesNeeded(
  config: Config,
  declared: {
    readonly socketEndpoints: boolean;
    readonly rateLimits: boolean;
    readonly jwt: boolean;
    /** Refused credentials are counted (an authentication mechanism, and a failed-authentications budget). */
    readonly countsRefusals?: boolean;
  },
): PackageNeed[] {
  const needs: PackageNeed[] = [];
  if (config.get('framework.metrics.enabled'))
    needs.push({ name: 'prom-client', feature: 'framework.metrics.enabled=true' });
  const backend = config.get('framework.broadcast.backend');
  if (backend !== 'memory') needs.push({ name: 'ioredis', feature: `framework.broadcast.backend=${backend}` });
  if ((declared.rateLimits || declared.countsRefusals) && config.get('framework.http.rate-limit.backend') === 'redis')
    needs.push({ name: 'ioredis', feature: 'framework.http.rate-limit.backend=redis' });
  if (declared.jwt) needs.push({ name: 'jose', feature: 'framework.security.jwt.*' });
  if (declared.socketEndpoints) needs.push({ name: 'ws', feature: '@WebSocketEndpoint' });
  if (dateFormatsDeclared() || jsonFormatsDeclared())
    needs.push({ name: 'date-fns', feature: 'a date pattern (@DateFormat or @JsonFormat)' });
  if (config.get('framework.openapi.ui.always-include'))
    needs.push({ name: 'swagger-ui-dist', feature: 'framework.openapi.ui.always-include=true' });
  return needs;
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
        : `${feature} needs it, and ${runtimeName()} cannot load it: this bundle has no require() (see docs/runtimes.md)`,
    );
  }
}
