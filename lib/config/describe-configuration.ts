// Lists every setting with its default and description, for documentation and its consistency test.
import { logCategoryKey } from './log-category-key';
import { frameworkSettings, FRAMEWORK_KEYS } from './schema';
import { logLevel } from './setting-types';

export interface SettingDescription {
  readonly key: string;
  /** As a user would write it; `undefined` when the setting is optional. */
  readonly default: string | undefined;
  readonly description: string;
  /** What a valid value looks like, e.g. `an integer from 0 to 65535`. */
  readonly expected: string;
}

/**
 * Every `framework.*` setting of the schema in declaration order, then the per-category log level family.
 *
 * @example
 * describeConfiguration().find((s) => s.key === 'framework.http.port')?.default; // '8080'
 */
export function describeConfiguration(): SettingDescription[] {
  const settings: SettingDescription[] = FRAMEWORK_KEYS.map((key) => {
    const entry = frameworkSettings[key];
    return { key, default: entry.default, description: entry.description, expected: entry.type.expected };
  });
  settings.push({
    key: logCategoryKey('<category>'),
    default: undefined,
    description: 'Level of one log category and those below it (dot-separated); unset categories inherit.',
    expected: logLevel.expected,
  });
  return settings;
}
