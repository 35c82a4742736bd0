/** One class the build step found: its decorator metadata and the one instance requests use. */
import type { ClassMeta } from './store';

export interface Unit {
  readonly type: Function;
  readonly meta: ClassMeta;
  readonly instance: object;
  /** Whether the class declares endpoints (its exception mappers are then class-local). */
  readonly isResource: boolean;
}
