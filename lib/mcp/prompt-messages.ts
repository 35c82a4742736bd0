/** What a prompt method's value becomes in `prompts/get`: its messages, each a role and one content block. */

export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: Readonly<Record<string, unknown>>;
}

export interface GetPromptResult {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
}

function isMessage(value: unknown): value is PromptMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { role, content } = value as { role?: unknown; content?: unknown };
  return (role === 'user' || role === 'assistant') && typeof content === 'object' && content !== null;
}

function isContentBlock(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** One item as a message: a message as it is, a text or a content block as a user message. */
function messageOf(item: unknown): PromptMessage {
  if (isMessage(item)) return item;
  if (isContentBlock(item)) return { role: 'user', content: item };
  return { role: 'user', content: { type: 'text', text: typeof item === 'string' ? item : JSON.stringify(item) } };
}

/**
 * A prompt's result: `{ messages }` as it is; a list as one message per item; a message, a content block or a text
 * as one message (texts and blocks from the user).
 */
export function toPromptResult(value: unknown, description: string | undefined): GetPromptResult {
  const described = description === undefined ? {} : { description };
  if (typeof value === 'object' && value !== null && Array.isArray((value as { messages?: unknown }).messages))
    return { ...described, ...(value as GetPromptResult) };
  const items = Array.isArray(value) ? value : [value];
  return { ...described, messages: items.map(messageOf) };
}
