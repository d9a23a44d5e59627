/**
 * Text a database can store. PostgreSQL refuses the NUL character in text, and an unpaired UTF-16
 * surrogate cannot be encoded as UTF-8; either would fail deep inside a query (a 500 whose log
 * line carried the query's parameters). Every JSON body and every signed payload is checked once
 * at the edge, so such a string is a field error naming where it is.
 */
export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (value: string) => !value.includes('\u0000') && !LONE_SURROGATE.test(value);

/**
 * The dotted path of the first string (value or object key) that is not storable, or undefined.
 * Walks without recursion: a 64 KiB body can nest thousands of levels deep.
 */
export function findUnstorableText(value: unknown, prefix = ''): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: prefix }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return path || '(body)';
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: path ? `${path}.${i}` : String(i) });
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const childPath = path ? `${path}.${key}` : key;
        if (!isStorableText(key)) return path || '(body)';
        stack.push({ value: child, path: childPath });
      }
    }
  }
  return undefined;
}
