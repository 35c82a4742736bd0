import type { RequestContext } from '../../context/request-context';

/**
 * The matched resource class and method (`undefined` before routing, e.g. in pre-matching filters).
 *
 * @example
 * \@ServerRequestFilter() audit(info: ResourceInfo) { log(info.resourceClass?.name, info.resourceMethod); }
 */
export class ResourceInfo {
  readonly #ctx: RequestContext;

  constructor(ctx: RequestContext) {
    this.#ctx = ctx;
  }

  get resourceClass(): Function | undefined {
    return this.#ctx.endpoint?.resourceClass;
  }

  /** The method's name. */
  get resourceMethod(): string | undefined {
    return this.#ctx.endpoint?.methodName;
  }

  /** The method's function, e.g. to read its own metadata. */
  get method(): Function | undefined {
    const endpoint = this.#ctx.endpoint;
    return endpoint && ((endpoint.resourceClass.prototype as Record<string, unknown>)[endpoint.methodName] as Function);
  }
}
