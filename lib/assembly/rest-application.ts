/** The build step: decorated classes and features in, a built application out. */
import { checkPackages, corePackages } from './optional-packages';
import { assemblePipeline } from './assemble-pipeline';
import type { BuildOptions } from './build-options';
import { builtInFeatures } from './built-in-features';
import { compileEndpoints } from './compile-endpoints';
import { openScope, planCore } from './core-plan';
import { JoinedFeatures } from './join-features';
import { RestApp } from './rest-app';
import { handPackages } from '../runtime/load-package';

export type { BuildOptions } from './build-options';
export type { EndpointSummary } from './compile-endpoints';
export { RestApp } from './rest-app';

/**
 * The build step: reads the decorators of the application's classes once, builds each feature (the framework's,
 * then the application's own), compiles every endpoint with the steps the features join to it, and puts the
 * request pipeline together. Every problem found is reported together in one `DefinitionError`.
 *
 * @example
 * const app = RestApplication.build({ classes: [FruitResource] });
 * await app.listen({ port: 8080 });
 */
export const RestApplication = {
  build(options: BuildOptions = {}): RestApp {
    if (options.packages) handPackages(options.packages);
    const scope = openScope(options);
    const features = new JoinedFeatures(
      [...builtInFeatures(options.authentication), ...(options.features ?? [])],
      scope,
    );
    const core = planCore(scope, options);
    const endpoints = compileEndpoints(scope, core, features.joins);
    checkPackages([...corePackages(), ...features.packages()], scope.problems);
    scope.problems.throwIfAny();
    features.start();
    return new RestApp({
      scope,
      pipeline: assemblePipeline(scope, core, features, endpoints.all),
      endpoints: endpoints.summary,
      openStreams: core.streams.openStreams,
      shutdown: (graceMs) => features.shutdown(graceMs),
      close: () => features.close(),
    });
  },
};
