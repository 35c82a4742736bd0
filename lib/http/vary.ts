// The Vary response header (RFC 9110 §12.5.5): the request fields an answer was chosen by. Knows nothing of responses.

/** `field` added once, compared without case; `*` already says all. */
export function varyWith(current: string | null | undefined, field: string): string {
  if (current === null || current === undefined || current.trim() === '') return field;
  const wanted = field.toLowerCase();
  for (const listed of current.split(',')) {
    const name = listed.trim().toLowerCase();
    if (name === wanted || name === '*') return current;
  }
  return `${current}, ${field}`;
}
