/**
 * The samples application as Bun, Deno and Cloudflare Workers serve it through `app.fetch`: every resource whose
 * feature the runtime carries (docs/runtimes.md has the table), with the settings that need no disk where there is none.
 */
import { RestApplication, type RestApp } from '../../lib';
import { sampleClasses } from '../classes';
import { multipartSampleClasses } from '../multipart/multipart-resource';
import { securitySampleClasses } from '../security/security-resource';
import { UploadsReadiness } from '../health/uploads-readiness';

export type FetchRuntime = 'bun' | 'deno' | 'workerd';

// On Workers, files on disk and the optional packages loaded by name (prom-client for metrics, jose for the JWT
// samples) are not there. WebSockets are upgraded by each runtime's own API.
const offDisk = new Set<Function>([...multipartSampleClasses, ...securitySampleClasses, UploadsReadiness]);

/** The sample classes `runtime` serves. */
export function runtimeSampleClasses(runtime: FetchRuntime): Function[] {
  return sampleClasses.filter((type) => runtime !== 'workerd' || !offDisk.has(type));
}

/** Settings of the samples that only Node (or a disk) carries, switched off for `runtime`. */
export function runtimeOverrides(runtime: FetchRuntime): Record<string, string | number | boolean> {
  if (runtime !== 'workerd') return {};
  return {
    'framework.http.static.directory': '',
    'framework.openapi.ui.always-include': false,
    'framework.metrics.enabled': false,
    'framework.security.jwt.public-key-file': '',
  };
}

/**
 * Builds the samples application for `runtime`: its `application.properties` in `directory` where there is a disk, or
 * given as `properties` text where there is none.
 */
export function buildRuntimeSamples(
  runtime: FetchRuntime,
  source: { readonly directory?: string; readonly properties?: string },
): RestApp {
  return RestApplication.build({
    classes: runtimeSampleClasses(runtime),
    ...source,
    overrides: runtimeOverrides(runtime),
  });
}
