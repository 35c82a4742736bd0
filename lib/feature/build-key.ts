/** A typed key for what a feature hands later features or the build step: none meet by spelling the same string. */
export class BuildKey<T> {
  /** Carries `T` for the type checker only. */
  declare readonly valueType?: T;

  /** `name` is for people (build errors), never a lookup. */
  constructor(readonly name: string) {}
}

/** A typed key for a list several features add to (the health checks): each adds its items, in feature order. */
export class ListKey<T> {
  /** Carries `T` for the type checker only. */
  declare readonly itemType?: T;

  constructor(readonly name: string) {}
}
