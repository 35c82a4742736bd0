/** The `Application` base class: an optional explicit list of the classes that make the application. */

/**
 * Subclass it to set `@ApplicationPath`, or to list the application's classes explicitly (then
 * build conditions such as `@IfBuildProfile` are ignored).
 */
export class Application {
  /** The resource and provider classes; `undefined` means every decorated class imported. */
  getClasses(): Function[] | undefined {
    return undefined;
  }

  /** Ready-made resource or provider instances, used as they are. */
  getSingletons(): object[] | undefined {
    return undefined;
  }
}
