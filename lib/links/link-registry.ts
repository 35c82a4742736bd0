/** The link targets of an application, grouped by entity type; built once, read by every request. */

export interface LinkTarget {
  readonly rel: string;
  readonly title?: string;
  readonly type?: string;
  /** `/records/{id}`, application path included. */
  readonly template: string;
  /** None: a type-level link. */
  readonly variables: readonly string[];
  readonly entityType: Function;
}

/** Link targets by entity type, in declaration order; a subclass falls back to the nearest superclass with targets. */
export class LinkRegistry {
  readonly #byType = new Map<Function, LinkTarget[]>();

  add(target: LinkTarget): void {
    const list = this.#byType.get(target.entityType);
    if (list) list.push(target);
    else this.#byType.set(target.entityType, [target]);
  }

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

  typeTargetsOf(type: Function | undefined): readonly LinkTarget[] {
    return this.targetsOf(type).filter((target) => target.variables.length === 0);
  }
}
