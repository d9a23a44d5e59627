import * as core from 'zod/v4/core';

/**
 * A messages map with no prototype. Field names come from the client (an unknown top-level key
 * is reported under its own name), so a key such as `toString`, `constructor` or `__proto__`
 * must be an ordinary entry, never an inherited property or the prototype setter.
 */
export const emptyMessages = (): Record<string, string[]> => Object.create(null) as Record<string, string[]>;

/**
 * Turns zod issues into the envelope's `messages`: dotted field path → messages.
 * Shared by the server and the islands, so a browser shows the same words the API returns.
 */
export function issuesToMessages(issues: readonly core.$ZodIssue[], prefix = ''): Record<string, string[]> {
  const messages = emptyMessages();
  const add = (path: string, text: string) => {
    const list = messages[path];
    if (list) list.push(text);
    else messages[path] = [text];
  };
  for (const issue of issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)';
    let text = issue.message;
    if (issue.code === 'invalid_type' && /received undefined/.test(text)) text = 'is required';
    else if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([path === '(body)' ? '' : path, key].filter(Boolean).join('.'), 'is not a recognised field');
      continue;
    }
    add(path, text);
  }
  return messages;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; messages: Record<string, string[]> };

/** Parses with a zod (classic or mini) schema; failures become `messages`, keys prefixed with `prefix` when given. */
export function parseWith<S extends core.$ZodType>(schema: S, input: unknown, prefix = ''): ParseResult<core.output<S>> {
  const result = core.safeParse(schema, input);
  return result.success ? { ok: true, value: result.data } : { ok: false, messages: issuesToMessages(result.error.issues, prefix) };
}
