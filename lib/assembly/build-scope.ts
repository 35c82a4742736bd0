/** What one build is given, and what it gives its features: configuration, classes, problems, typed hand-overs. */
import type { Config, LoadConfigOptions } from '../config';
import type { Application } from '../decorators/application';
import type { OperatorFilter } from './compile-filters';
import type { AuthenticationMechanism } from '../security/authentication-mechanism';
import type { ProblemCollector } from '../errors/definition-error';
import type { BuildKey, ListKey } from '../feature/build-key';
import type { Feature, FeatureBuild } from '../feature/feature';
import type { Unit } from '../metadata/unit';

/** What `RestApplication.build()` is given. */
export interface BuildOptions extends LoadConfigOptions {
  /** The resource and provider classes; every decorated class imported so far when absent. */
  readonly classes?: readonly Function[];
  /** An `Application` subclass instance: its `@ApplicationPath`, `getClasses()` and `getSingletons()`. */
  readonly application?: Application;
  /** Filters written as RxJS operators. */
  readonly filters?: readonly OperatorFilter[];
  /** A ready configuration, instead of loading one. */
  readonly config?: Config;
  /**
   * Authentication mechanisms of the application's own (`apiKeys(...)`, or one implementing
   * `AuthenticationMechanism`), tried in order before the bearer JWTs `framework.security.jwt.*` configures.
   */
  readonly authentication?: readonly AuthenticationMechanism[];
  /** The application's own features (`defineFeature`), joined after the framework's, in this order. */
  readonly features?: readonly Feature[];
  /**
   * Optional packages handed in as module objects, by package name (`{ jose }` after `import * as jose from 'jose'`):
   * used instead of loading them by name, which a bundle with no `require()` (a Cloudflare Worker) cannot do.
   */
  readonly packages?: Readonly<Record<string, unknown>>;
}

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
