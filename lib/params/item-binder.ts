/** One item of a body of items, bound and validated as a JSON body is. Knows nothing of how items are delimited. */
import type { EventSourceMessage } from 'eventsource-parser';
import type { ZodType } from 'zod';
import type { ParamOptions } from '../decorators/params';
import { parseJsonBody } from '../json/safe-json';
import { itemPlace, type EmitItem } from '../body/request-items';
import { httpProblem } from '../errors/http-problem';
import { WebApplicationException } from '../errors/web-application-exception';
import { classSchema, PRIMITIVE_TYPES } from '../json/bind-class';
import { DefaultJsonMapper } from '../json/default-json-mapper';
import type { JsonMapper } from '../json/json-mapper';
import { isJsonTypeToken } from '../json/json-values';
import { sseEvent } from '../streaming/sse-event';
import { describeType, isUnknownDesignType } from '../convert/convert';
import { validate } from './read-body-argument';

/** Throws a 400 problem naming the item. */
export type ItemBinder = (...item: Parameters<EmitItem>) => unknown;

/** Unlike a single body, a typed item is never `null` (the handler would fail mid-stream) unless a schema says. */
function typedItem(
  text: string,
  schema: ZodType | undefined,
  target: unknown,
  mapper: JsonMapper,
  place: () => string,
) {
  if (schema) {
    const data = validate(schema, mapper.readValue(text), `${place()} is invalid`);
    return target ? mapper.readValue(JSON.stringify(data), target) : data;
  }
  const value = mapper.readValue(text, target);
  if (value === null && target !== undefined && !isJsonTypeToken(target)) {
    const kind = PRIMITIVE_TYPES.get(target as Function);
    const expected = kind ? `a ${kind}` : `an object (${describeType(target)})`;
    throw httpProblem('RXREST_MALFORMED_BODY', `${place()} is null, not ${expected}`);
  }
  return value;
}

/** Its data JSON when it looks like JSON, else the text. */
function untypedEvent(text: string, event: EventSourceMessage, mapper: JsonMapper): unknown {
  const first = text.trimStart()[0];
  const data = first === '{' || first === '[' || first === '"' ? mapper.readValue(text) : text;
  return sseEvent({ data, id: event.id, event: event.event });
}

/** "The request body is not valid JSON" becomes "Line 7 of the request body is not valid JSON". */
function placed(error: unknown, item: { readonly index: number; readonly line?: number }): unknown {
  if (!(error instanceof WebApplicationException) || !error.problem || error.problem.detail.startsWith(itemPlace(item)))
    return error;
  const detail = error.problem.detail.replace(/^The request body\b/, '');
  const said = `${itemPlace(item)}${detail === error.problem.detail ? `: ${detail}` : detail}`;
  return httpProblem(error.problem.code, said, { violations: error.problem.violations });
}

export function itemBinder(options: ParamOptions, mapper: JsonMapper): ItemBinder {
  const type = typeof options.type === 'function' ? options.type : undefined;
  const schema: ZodType | undefined = options.schema ?? classSchema(type);
  const target = type === undefined || (isUnknownDesignType(type) && !isJsonTypeToken(type)) ? undefined : type;
  // An SSE event's data is text unless a type says it is JSON: a string type keeps it as text.
  const eventAsText = type === String && !schema;
  // Untyped JSON items through the default mapper skip its test for poisoned keys when their chunk passed it.
  const plain = !schema && !target && mapper instanceof DefaultJsonMapper;
  return (text, index, line, event, suspect) => {
    try {
      if (plain && !event) return parseJsonBody(text, suspect);
      if (event && eventAsText) return text;
      if (event && !schema && !target) return untypedEvent(text, event, mapper);
      return typedItem(text, schema, target, mapper, () => itemPlace({ index, line }));
    } catch (error) {
      throw placed(error, { index, line });
    }
  };
}
