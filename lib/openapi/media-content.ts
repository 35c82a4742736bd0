/** The content of a body per media type: the schema of a value, or of each item of a stream (OpenAPI 3.2 `itemSchema`). */
import { isJsonText } from '../http/media-type';
import { baseType, isJsonItemType } from '../http/streaming-types';
import type { JsonSchema } from './type-schema';

/** The SSE event an item travels in: its `data` is the item's JSON. */
function sseEvent(element: JsonSchema): JsonSchema {
  return {
    itemSchema: {
      type: 'object',
      properties: {
        data: { type: 'string', contentMediaType: 'application/json', contentSchema: element },
        event: { type: 'string' },
        id: { type: 'string' },
        retry: { type: 'integer', minimum: 0 },
      },
    },
  };
}

export function content(produces: readonly string[], element: JsonSchema, streams: boolean): JsonSchema {
  return Object.fromEntries(
    produces.map((mediaType) => {
      const base = baseType(mediaType);
      if (!streams) return [mediaType, { schema: element }];
      if (base === 'text/event-stream') return [mediaType, sseEvent(element)];
      if (isJsonItemType(base)) return [mediaType, { itemSchema: element }];
      if (isJsonText(base)) return [mediaType, { schema: { type: 'array', items: element } }];
      return [mediaType, { schema: element }];
    }),
  );
}
