import type { AuditEntry } from '../db/schema.ts';
import { listAudit } from '../domain/accounts/audit.ts';
import { listUsers } from '../domain/accounts/users.ts';
import type { Messages } from '../domain/errors.ts';
import { parseWith } from '../schemas/parse.ts';
import { type ActivityLine, type ActivityQuery, actionsOf, activityInWords, activityQuerySchema } from './activity-words.ts';
import type { ConsoleView } from './entry.ts';

export interface ActivityPage {
  query: ActivityQuery;
  /** A filter the address names that cannot be used: shown, with a 400, and no list. */
  messages: Messages;
  entries: (AuditEntry & { line: ActivityLine })[];
  next?: number;
  /** Whom the filter may pick: the account's users, and whoever the filter names already (a removed user's entries stay). */
  people: string[];
}

/** The activity page's list (owners): its filters read from the address, the entries in words. */
export async function loadActivity({ app, identity }: Pick<ConsoleView<never>, 'app' | 'identity'>, url: URL): Promise<ActivityPage> {
  const given = Object.fromEntries(['user', 'action', 'before'].map((k) => [k, url.searchParams.get(k) ?? '']));
  const parsed = parseWith(activityQuerySchema, given);
  const users = await listUsers(app, identity);
  const people = users.map((u) => u.email);
  if (!parsed.ok) return { query: {}, messages: parsed.messages, entries: [], people };
  const query = parsed.value;
  const userIds = new Map(users.map((u) => [u.email.toLowerCase(), u.id]));
  const { entries, next } = await listAudit(app.db, identity.user.integratorId, {
    before: query.before,
    actorEmail: query.user,
    actions: query.action ? actionsOf(query.action) : undefined,
  });
  if (query.user && !people.some((p) => p.toLowerCase() === query.user?.toLowerCase())) people.push(query.user);
  return { query, messages: {}, entries: entries.map((e) => ({ ...e, line: activityInWords(e, (email) => userIds.get(email)) })), next, people };
}
