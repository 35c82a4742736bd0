/**
 * The framework's own topics (MCP's) share the backplane: an application naming topics after a client's input must
 * not let a stranger into them, so its entry points refuse those names.
 */
import { httpProblem } from '../errors/http-problem';

const FRAMEWORK_NAMESPACE = /^mcp(?::|\/|-session\/)/;

/** `name`, an application's topic; a 400 problem (`RXREST_RESERVED_TOPIC`) when it is in the framework's namespace. */
export function applicationTopic(name: string): string {
  if (!FRAMEWORK_NAMESPACE.test(name)) return name;
  throw httpProblem(
    'RXREST_RESERVED_TOPIC',
    `The topic name ${name} is in the framework's own namespace (mcp:, mcp/, mcp-session/)`,
  );
}
