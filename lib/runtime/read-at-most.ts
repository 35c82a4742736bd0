/** Reads a Web byte stream whole, up to a limit: an answer or a request body not to be trusted. */

/**
 * The bytes of `body`, at most `limit` of them: one past it cancels the stream (its connection is let go of) and
 * throws `tooLarge()`. A read that fails goes through `failed` (which throws), as the caller marks such failures.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array>,
  limit: number,
  tooLarge: () => Error,
  failed: (error: unknown) => never = (error) => {
    throw error;
  },
): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(failed);
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
