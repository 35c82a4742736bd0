/** Media types beyond the common ones, for `@Produces` and `Accept` (the specification's `RestMediaType`). */
export const RestMediaType = {
  /** HAL: JSON with `_links` and `_embedded` (draft-kelly-json-hal). */
  APPLICATION_HAL_JSON: 'application/hal+json',
} as const;
