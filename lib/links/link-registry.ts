/** The link targets of an application, grouped by entity type; built once, read by every request. */

/** One endpoint marked with `@RestLink`, as links to it are made. */
export interface LinkTarget {
  readonly rel: string;
  readonly title?: string;
  readonly type?: string;
  /** The full path template, application path included (`/records/{id}`). */
  readonly template: string;
  /** The template's variable names; a target without any is a type-level link. */
  readonly variables: readonly string[];
  readonly entityType: Function;
}

/**
 * Link targets by entity type, in declaration order. Lookups by a subclass fall back to the nearest
 * superclass that has targets.
 */
export class LinkRegistry {
  readonly #byType = new Map<Function, LinkTarget[]>();

  add(target: LinkTarget): void {
    const list = this.#byType.get(target.entityType);
    if (list) list.push(target);
    else this.#byType.set(target.entityType, [target]);
  }

  /** Every target of `type` (type-level and instance-level). */
  targetsOf(type: Function | undefined): readonly LinkTarget[] {
    for (
      let current: unknown = type;
      typeof current === 'function' && current !== Function.prototype;
      current = Object.getPrototypeOf(current)
    ) {
      const list = this.#byType.get(current as Function);
      if (list) return list;
    }
    return [];
  }

  /** The targets of `type` without template variables. */
  typeTargetsOf(type: Function | undefined): readonly LinkTarget[] {
    return this.targetsOf(type).filter((target) => target.variables.length === 0);
  }
}
