/**
 * Requests a tool makes of its client while it runs — sampling (`sampling/createMessage`: ask the client's model) and
 * elicitation (`elicitation/create`: ask its user) — as Observables: subscribing sends the request on the call's own
 * stream, the client's answer is the one value, its error the Observable's error; unsubscribing before the answer
 * tells the client the request is cancelled.
 */

/** One message of a sampling conversation. */
export interface SamplingMessage {
  readonly role: 'user' | 'assistant';
  readonly content: Readonly<Record<string, unknown>> & { readonly type: string };
}

/** `sampling/createMessage` (the fields MCP defines beyond these pass as they are). */
export interface CreateMessageParams {
  readonly messages: readonly SamplingMessage[];
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: Readonly<Record<string, unknown>>;
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly [field: string]: unknown;
}

/** The client's answer to `sampling/createMessage`. */
export interface CreateMessageResult {
  readonly role: 'user' | 'assistant';
  readonly content: Readonly<Record<string, unknown>> & { readonly type: string };
  readonly model: string;
  readonly stopReason?: string;
  readonly [field: string]: unknown;
}

/** `elicitation/create`: a message for the user and the schema of what to ask (flat: strings, numbers, booleans, enums). */
export interface ElicitParams {
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

/** The user's answer: what they did, and what they gave when they accepted. */
export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

/** The capability a client must have declared for a request method. */
export const REQUIRED_CAPABILITY: Readonly<Record<string, string>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};
