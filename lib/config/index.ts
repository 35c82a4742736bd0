export { Config } from './config';
export { ConfigError, type ConfigProblem } from './config-error';
export { describeConfiguration } from './describe-configuration';
export { loadConfig, type LoadConfigOptions } from './load-config';
export { resolveConfig } from './resolve-config';
export type { FrameworkConfig, FrameworkKey } from './schema';
