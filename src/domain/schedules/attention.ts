import { and, desc, eq, gt, or, sql } from 'drizzle-orm';
import { cardRegistrations, type Integrator, schedules } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { linkSlugsOf } from '../subscriptions/portal.ts';
import type { ScheduleListRecord } from './service.ts';

/** How many schedules the console's Home lists under "Schedules that need attention". */
export const ATTENTION_LIMIT = 5;

/**
 * The integrator's schedules a merchant should look at: suspended ones (the scheduler stopped them
 * after too many failed charges in a row) first, then active ones whose last charges failed (most
 * failures first), newest first within each. Cancelled schedules never need attention.
 */
export async function schedulesNeedingAttention(
  app: DomainContext,
  integrator: Pick<Integrator, 'id'>,
  limit = ATTENTION_LIMIT,
): Promise<ScheduleListRecord[]> {
  const rows = await app.db
    .select({
      schedule: schedules,
      name: sql<string | null>`coalesce(${cardRegistrations.customerName}, ${cardRegistrations.holderName})`,
      email: cardRegistrations.customerEmail,
    })
    .from(schedules)
    .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
    .where(
      and(
        eq(schedules.integratorId, integrator.id),
        or(eq(schedules.status, 'suspended'), and(eq(schedules.status, 'active'), gt(schedules.consecutiveFailures, 0))),
      ),
    )
    .orderBy(sql`${schedules.status} = 'suspended' desc`, desc(schedules.consecutiveFailures), desc(schedules.createdAt), desc(schedules.id))
    .limit(limit);
  const slugs = await linkSlugsOf(
    app.db,
    rows.map((r) => r.schedule),
  );
  return rows.map(({ schedule, name, email }) => ({
    schedule,
    customer: name || email ? { name, email } : null,
    link: slugs.get(schedule.linkId ?? '') ?? null,
  }));
}
