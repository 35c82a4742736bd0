// Decides conservatively whether a variable's regex may match `/` (spanning segments); knows nothing of templates.

const SLASH = 0x2f;
/** `\D \W \S`, `\/`, code escapes, back-references. */
const UNSAFE_ESCAPE = /[DWS/xuck0-9]/;

/** `true` means "maybe": the router then stops assuming the template's number of segments. */
export function mayMatchSlash(regex: string): boolean {
  for (let i = 0; i < regex.length; i++) {
    const char = regex[i] as string;
    if (char === '.' || char === '/') return true;
    if (char === '\\') {
      if (UNSAFE_ESCAPE.test(regex[i + 1] ?? '')) return true;
      i++;
    } else if (char === '[') {
      const end = classEnd(regex, i);
      if (end === -1 || classMayMatchSlash(regex.slice(i + 1, end))) return true;
      i = end;
    }
  }
  return false;
}

function classEnd(regex: string, open: number): number {
  // A `]` right after `[` or `[^` is a literal member, as in Java.
  let i = open + 1;
  if (regex[i] === '^') i++;
  if (regex[i] === ']') i++;
  for (; i < regex.length; i++) {
    if (regex[i] === '\\') i++;
    else if (regex[i] === ']') return i;
  }
  return -1;
}

/** `regex` with each character class as `[]`: a `^` or `$` left is an anchor, not a member. */
export function outsideClasses(regex: string): string {
  let outside = '';
  for (let i = 0; i < regex.length; i++) {
    if (regex[i] === '[') {
      const end = classEnd(regex, i);
      if (end === -1) return regex;
      outside += '[]';
      i = end;
      continue;
    }
    // An escape is kept whole: `\[` opens no class.
    const length = regex[i] === '\\' ? 2 : 1;
    outside += regex.slice(i, i + length);
    i += length - 1;
  }
  return outside;
}

/** A negated class (`[^/]`) may match `/` unless `/` is among what it excludes. */
function classMayMatchSlash(members: string): boolean {
  if (members.startsWith('^')) return !hasSlash(members.slice(1));
  for (let i = 0; i < members.length; i++) {
    const char = members[i] as string;
    if (char === '\\') {
      if (UNSAFE_ESCAPE.test(members[i + 1] ?? '')) return true;
      i++;
      continue;
    }
    if (char === '/') return true;
    if (members[i + 1] === '-' && i + 2 < members.length) {
      const last = members[i + 2] as string;
      if (last === '\\') return true;
      if (char.charCodeAt(0) <= SLASH && SLASH <= last.charCodeAt(0)) return true;
      i += 2;
    }
  }
  return false;
}

/** `/` or `\/` among a class's members (alone or ending a range, it is one of them). */
function hasSlash(members: string): boolean {
  for (let i = 0; i < members.length; i++) {
    if (members[i] === '\\') i++;
    if (members[i] === '/') return true;
  }
  return false;
}
