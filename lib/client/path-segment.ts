/**
 * `segment` (percent-encoded) as a path parameter's value, never a step of the path: with ".", ".." or "" the call
 * would reach another resource (/users/{id}/orders with ".." is /orders) with the caller's credentials.
 */
export function pathSegment(segment: string, where: string, name: string): string {
  if (segment === '' || segment === '.' || segment === '..')
    throw new TypeError(
      `${where}: the path parameter "${name}" is ${JSON.stringify(segment)}: in a URL the call would reach another resource`,
    );
  return segment;
}
