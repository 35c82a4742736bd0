/** What `RestApplication.build()` is given. */
import type { LoadConfigOptions, Config } from '../config';
import type { Application } from '../decorators/application';
import type { Feature } from '../feature/feature';
import type { AuthenticationMechanism } from '../security/authentication-mechanism';
import type { OperatorFilter } from './compile-filters';

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
