/** The value of a path parameter in a client's URL: never a step of the path. */

/**
 * `segment` (percent-encoded) as the value of the path parameter `name`. A URL resolves "." and ".." as steps of the
 * path, and "" leaves a bare slash: the call would reach another resource (/users/{id}/orders with ".." is /orders)
 * with the caller's credentials, so such a value fails the call.
 */
export function pathSegment(segment: string, where: string, name: string): string {
  if (segment === '' || segment === '.' || segment === '..')
    throw new TypeError(
      `${where}: the path parameter "${name}" is ${JSON.stringify(segment)}: in a URL the call would reach another resource`,
    );
  return segment;
}
