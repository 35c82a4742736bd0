// Names and reads the open key family `framework.log.category."<category>".level`.

const PREFIX = 'framework.log.category.';
const SUFFIX = '.level';

/**
 * The category a per-category log level key names, without quotes; `undefined` when the key is not one.
 * Quotes are needed only for names with dots in most tools, so both forms are read: the name is whatever
 * lies between the prefix and `.level`.
 *
 * @example
 * logCategoryOf('framework.log.category."rxrest.params".level'); // 'rxrest.params'
 * logCategoryOf('framework.log.category.rxrest.level');          // 'rxrest'
 */
export function logCategoryOf(key: string): string | undefined {
  if (!key.startsWith(PREFIX) || !key.endsWith(SUFFIX)) return undefined;
  const inner = key.slice(PREFIX.length, key.length - SUFFIX.length);
  const name = /^"(.*)"$/.exec(inner)?.[1] ?? inner;
  return name === '' || name.includes('"') ? undefined : name;
}

/**
 * The key that sets the level of one log category.
 *
 * @example
 * logCategoryKey('rxrest.params'); // 'framework.log.category."rxrest.params".level'
 */
export function logCategoryKey(category: string): string {
  return `${PREFIX}"${category}"${SUFFIX}`;
}

/** Whether a key belongs to the per-category family at all (even if malformed), for typo suggestions. */
export function isLogCategoryFamily(key: string): boolean {
  return key.startsWith(PREFIX);
}

/** `FRAMEWORK_LOG_CATEGORY__<NAME>__LEVEL`: a category level set in the environment, its name in `<NAME>`. */
const ENV_NAME = /^FRAMEWORK_LOG_CATEGORY__([A-Z0-9_]+)__LEVEL$/;

/**
 * The per-category keys an environment sets by their environment names (`envName` of the key), so that a level can
 * be given to a container without a file. The name comes back in lower case with `_` read as `.` (as Quarkus reads
 * `QUARKUS_LOG_CATEGORY__IO_QUARKUS__LEVEL`): a category whose name has `_` or `-` is set by its key instead.
 *
 * @example
 * logCategoryKeysOf(['FRAMEWORK_LOG_CATEGORY__RXREST_SECURITY__LEVEL']); // ['framework.log.category."rxrest.security".level']
 */
export function logCategoryKeysOf(names: Iterable<string>): string[] {
  return Array.from(names).flatMap((name) => {
    const category = ENV_NAME.exec(name)?.[1];
    return category ? [logCategoryKey(category.toLowerCase().replaceAll('_', '.'))] : [];
  });
}
