import { type ConsolePaymentRow, consolePaymentRow, consoleTime } from '../api/presenters/console-payments.ts';
import type { ConsoleIdentity } from '../domain/accounts/sessions.ts';
import type { DomainContext } from '../domain/context.ts';
import { formatMoney } from '../domain/money.ts';
import { listTransactions } from '../domain/payments/query.ts';
import { type PaymentSummary, paymentSummary } from '../domain/payments/summary.ts';
import { schedulesNeedingAttention } from '../domain/schedules/attention.ts';

/** How many payments Home lists under "Recent payments" and under "Failed payments". */
export const HOME_LIST_SIZE = 5;

/** A schedule on Home that needs attention, in words. */
export interface AttentionRow {
  reference: string;
  customer: string;
  amount: string;
  /** "Suspended after 3 failed charges" or "2 failed charges in a row". */
  state: string;
  suspended: boolean;
  since: string;
}

export interface HomeView {
  summary: PaymentSummary;
  recent: ConsolePaymentRow[];
  failed: ConsolePaymentRow[];
  attention: AttentionRow[];
}

const charges = (n: number) => `${n} failed charge${n === 1 ? '' : 's'}`;

/** Home: the figures of the last 30 days, the latest payments, the latest failed ones and the schedules that need attention. */
export async function homeView(app: DomainContext, identity: ConsoleIdentity): Promise<HomeView> {
  const integrator = { id: identity.user.integratorId };
  const [summary, recent, failed, attention] = await Promise.all([
    paymentSummary(app, integrator.id),
    listTransactions(app, integrator, { limit: HOME_LIST_SIZE }),
    listTransactions(app, integrator, { limit: HOME_LIST_SIZE, status: 'failed' }),
    schedulesNeedingAttention(app, integrator),
  ]);
  return {
    summary,
    recent: recent.items.map(consolePaymentRow),
    failed: failed.items.map(consolePaymentRow),
    attention: attention.map(({ schedule: s, customer }) => ({
      reference: s.id,
      customer: customer?.name || customer?.email || '—',
      amount: formatMoney(s.amountMinor, s.currency),
      suspended: s.status === 'suspended',
      state: s.status === 'suspended' ? `Suspended after ${charges(s.consecutiveFailures)} in a row` : `${charges(s.consecutiveFailures)} in a row`,
      since: s.status === 'suspended' ? `since ${consoleTime(s.suspendedAt)}` : `next try ${consoleTime(s.nextRunAt)}`,
    })),
  };
}
