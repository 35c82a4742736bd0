/** The MCP protocol versions this server speaks, and how `initialize` and the `MCP-Protocol-Version` header agree on one. */

/** Newest first: `initialize` answers with the client's version when it is one of these, else with the first. */
export const PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

export const LATEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS[0]!;

/** What a request without the header is taken to speak (the transport's first version had no header). */
export const DEFAULT_HEADER_VERSION = '2025-03-26';

/** The version a session speaks: the client's own when supported (it then need not disconnect), else the latest. */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

export function isSupportedVersion(version: string): boolean {
  return PROTOCOL_VERSIONS.includes(version);
}

/**
 * Whether a client of `version` reads an SSE event with an id and empty data (a "priming" event that gives it a
 * `Last-Event-ID` before any message): from 2025-11-25; older clients may take the empty data for a broken message.
 */
export function readsPrimingEvents(version: string): boolean {
  return version >= '2025-11-25';
}
