/** Build-time rule: request filters with `nonBlocking: true` must come before every other request filter. */

/** The part of a compiled filter the rule reads. */
export interface LaneFilter {
  readonly name: string;
  readonly nonBlocking: boolean;
}

/**
 * The problems with an ordered list of request filters: one per `nonBlocking` filter that runs after a
 * filter without that setting (it could not run on the event loop once the worker lane was entered).
 *
 * @example
 * checkFilterOrder([{ name: 'A#f', nonBlocking: false }, { name: 'B#g', nonBlocking: true }]); // one problem
 */
export function checkFilterOrder(filters: readonly LaneFilter[]): { where: string; message: string }[] {
  const firstBlocking = filters.findIndex((filter) => !filter.nonBlocking);
  if (firstBlocking < 0) return [];
  return filters
    .slice(firstBlocking + 1)
    .filter((filter) => filter.nonBlocking)
    .map((filter) => ({
      where: filter.name,
      message: `is a nonBlocking request filter but runs after ${filters[firstBlocking].name}, which is not; give it a lower priority`,
    }));
}
