/**
 * The framework's own topics share the backplane with the application's: an MCP server's notices (`mcp:<path>`), a
 * session's (`mcp-session/<id>`), a tool call's stream (`mcp/<session>/<stream>`). An application naming its topics
 * after a client's input (a room per name) must not let a stranger publish into them or read them, so its entry points
 * (`broadcast()`, `app.broadcast()`, `resumable()`, `resume()`) refuse those names; the framework's code makes its
 * broadcasters and streams without them.
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
