import * as core from 'zod/v4/core';

/**
 * Turns zod issues into the envelope's `messages`: dotted field path → messages.
 * Shared by the server and the islands, so a browser shows the same words the API returns.
 */
export function issuesToMessages(issues: readonly core.$ZodIssue[], prefix = ''): Record<string, string[]> {
  const messages: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)';
    let text = issue.message;
    if (issue.code === 'invalid_type' && /received undefined/.test(text)) text = 'is required';
    else if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) (messages[[path === '(body)' ? '' : path, key].filter(Boolean).join('.')] ??= []).push('is not a recognised field');
      continue;
    }
    (messages[path] ??= []).push(text);
  }
  return messages;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; messages: Record<string, string[]> };

/** Parses with a zod (classic or mini) schema; failures become `messages`, keys prefixed with `prefix` when given. */
export function parseWith<S extends core.$ZodType>(schema: S, input: unknown, prefix = ''): ParseResult<core.output<S>> {
  const result = core.safeParse(schema, input);
  return result.success ? { ok: true, value: result.data } : { ok: false, messages: issuesToMessages(result.error.issues, prefix) };
}
