import { openOperatorSession } from '../api/operator.ts';
import { consoleEntry } from '../console/entry.ts';
import type { OperatorIdentity } from '../domain/operators/accounts.ts';

/**
 * The one entry of every signed-in operator page (the console's `consoleEntry` with the operator
 * session): session, CSRF, the dispatch of the page's actions and the shaping of their refusals.
 * Every operator may do everything, so there is no owner-only page here.
 */
export const openOperator = consoleEntry<OperatorIdentity>({ open: openOperatorSession, isOwner: () => true });
