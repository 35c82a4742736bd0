/** What one build gives its features: the configuration, the discovered classes, the problems, the typed hand-overs. */
import type { Config } from '../config';
import type { ProblemCollector } from '../errors/definition-error';
import type { BuildKey, ListKey } from '../feature/build-key';
import type { FeatureBuild } from '../feature/feature';
import type { Unit } from './discover';

export class BuildScope implements FeatureBuild {
  readonly #values = new Map<BuildKey<unknown>, unknown>();
  readonly #lists = new Map<ListKey<unknown>, unknown[]>();
  readonly resources: readonly Unit[];

  constructor(
    readonly config: Config,
    readonly directory: string,
    readonly units: readonly Unit[],
    readonly applicationPath: string,
    readonly problems: ProblemCollector,
  ) {
    this.resources = units.filter((unit) => unit.isResource);
  }

  provide<T>(key: BuildKey<T>, value: T): void {
    if (this.#values.has(key)) throw new TypeError(`Two parts of the build provide ${key.name}`);
    this.#values.set(key, value);
  }

  find<T>(key: BuildKey<T>): T | undefined {
    return this.#values.get(key) as T | undefined;
  }

  contribute<T>(key: ListKey<T>, item: T): void {
    const list = this.#lists.get(key);
    if (list) list.push(item);
    else this.#lists.set(key, [item]);
  }

  gather<T>(key: ListKey<T>): readonly T[] {
    return (this.#lists.get(key) ?? []) as T[];
  }
}
