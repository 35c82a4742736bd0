/** How a socket method's message parameter is decoded from a message: text, bytes, or JSON bound and validated. */
import type { ZodType } from 'zod';
import type { ParamOptions } from '../decorators/params';
import { httpProblem } from '../errors/http-problem';
import { WebApplicationException } from '../errors/web-application-exception';
import type { JsonMapper } from '../json/json-mapper';
import { isJsonTypeToken } from '../json/json-values';
import { isUnknownDesignType } from '../convert/convert';
import { classSchema, validate } from '../params/read-body-argument';
import { isNodeBufferClass, utf8Text } from '../runtime/bytes';

/**
 * Decodes a message for a parameter of `type` (or `options`): a string gets the text (binary as UTF-8), bytes the
 * bytes, anything else the JSON, bound and validated; a misfit throws a 400 problem said of "the message".
 */
export function messageDecoder(type: unknown, options: ParamOptions, json: JsonMapper): (data: Buffer) => unknown {
  const declared = options.type ?? type;
  if (declared === String) return utf8Text;
  if (isNodeBufferClass(declared) || declared === Uint8Array) return (data) => data;
  if (declared === ArrayBuffer) return (data) => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const schema: ZodType | undefined = options.schema ?? classSchema(declared);
  const target =
    declared === undefined || (isUnknownDesignType(declared) && !isJsonTypeToken(declared)) ? undefined : declared;
  return (data) => {
    try {
      if (!schema) return json.readValue(utf8Text(data), target);
      const valid = validate(schema, json.readValue(utf8Text(data)), 'The message is invalid');
      return target ? json.readValue(JSON.stringify(valid), target) : valid;
    } catch (error) {
      // "The request body is not valid JSON: ..." is said of the message.
      if (error instanceof WebApplicationException && error.problem?.detail.startsWith('The request body'))
        throw httpProblem(error.problem.code, error.problem.detail.replace(/^The request body/, 'The message'), {
          violations: error.problem.violations,
        });
      throw error;
    }
  };
}
