// Public surface of the configuration module.
export { Config } from './config';
export { ConfigError, type ConfigProblem } from './config-error';
export { envName } from './config-sources';
export { describeConfiguration, type SettingDescription } from './describe-configuration';
export { parseDuration } from './duration';
export { loadConfig, type LoadConfigOptions } from './load-config';
export { logCategoryKey, logCategoryOf } from './log-category-key';
export { parseProperties } from './properties';
export { resolveConfig, type ConfigInputs } from './resolve-config';
export {
  COMPRESSORS,
  FRAMEWORK_KEYS,
  frameworkSettings,
  OVERFLOW_POLICIES,
  type FrameworkConfig,
  type FrameworkKey,
} from './schema';
export type { RawValue } from './setting-types';
