/** Finds endpoints declared twice: same HTTP method, path pattern (variable names aside) and media types. */
import type { Endpoint } from '../pipeline/endpoint';

function mediaList(types: readonly string[]): string {
  return types.length ? [...types].sort().join(', ') : '*';
}

/** One message per conflict, naming every method that declares it. */
export function detectDuplicates(endpoints: readonly Endpoint[]): string[] {
  const groups = new Map<string, Endpoint[]>();
  for (const endpoint of endpoints) {
    const { info } = endpoint;
    const key = `${info.httpMethod} ${endpoint.template.normalized} ${mediaList(info.consumes)} ${mediaList(info.produces)}`;
    const group = groups.get(key);
    if (group) group.push(endpoint);
    else groups.set(key, [endpoint]);
  }
  const messages: string[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const { info } = group[0];
    const lines = group.map(
      ({ info: i }) =>
        `${i.resourceClass.name}#${i.methodName} consumes ${mediaList(i.consumes)}, produces ${mediaList(i.produces)}`,
    );
    messages.push(`${info.httpMethod} ${info.pathTemplate} is declared by :\n${lines.join('\n')}`);
  }
  return messages;
}
