/** Random hexadecimal text from the Web Crypto API every runtime has (no `node:crypto`). */

/** `bytes` random bytes as lowercase hexadecimal (twice as many characters). */
export function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let text = '';
  for (const value of values) text += value.toString(16).padStart(2, '0');
  return text;
}
