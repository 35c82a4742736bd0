/** The samples application: every resource of the reference contract, built from one list of classes. */
import { RestApplication, type RestApp } from '../lib';
import { sampleClasses } from './classes';

/** Builds the samples application with its configuration from `samples/application.properties`. */
export function buildSamples(overrides: Record<string, string | number | boolean> = {}): RestApp {
  return RestApplication.build({
    classes: sampleClasses,
    directory: __dirname.replace(/[\\/]dist[\\/]samples$/, '/samples'),
    overrides,
  });
}
