import { consoleTime } from '../../api/presenters/console-payments.ts';
import type { Schedule } from '../../db/schema.ts';
import { consoleAction } from '../../domain/accounts/acting.ts';
import type { DomainContext } from '../../domain/context.ts';
import { formatMoney } from '../../domain/money.ts';
import { cadenceOf, countRuns } from '../../domain/schedules/recurrence.ts';
import { resumeSchedule } from '../../domain/schedules/resume.ts';
import { cancelSchedule, getSchedule } from '../../domain/schedules/service.ts';
import { type Confirmation, isConfirmed } from '../confirm.ts';
import type { ConsoleAction } from '../entry.ts';

/** What the schedule page shows after a form: the confirm step of Cancel. */
export type ScheduleOutcome = { confirm: Confirmation };

/** A cancellation counts the charges it stops over this long, up to PLANNED_LIMIT (a schedule has no end of its own). */
const PLANNED_MONTHS = 12;
const PLANNED_LIMIT = 1000;

/** A schedule page's forms, Resume and Cancel (asked first); each ends in a redirect the page reads back. */
export function scheduleActions(reference: string): { actions: Record<string, ConsoleAction<ScheduleOutcome>>; otherwise: ConsoleAction<ScheduleOutcome> } {
  const path = `/console/schedules/${reference}`;
  return {
    actions: {
      resume: async ({ app, identity, from, seeOther }) => {
        const action = await consoleAction(app, identity, from);
        await resumeSchedule(app, action.integrator, reference, { actor: action.actor });
        return seeOther(`${path}?done=resumed`);
      },
      cancel: async ({ app, identity, field, from, seeOther }) => {
        const action = await consoleAction(app, identity, from);
        if (!isConfirmed(field)) {
          const record = await getSchedule(app, action.integrator, reference, { runLimit: 1 });
          return { confirm: cancelConfirmation(app, record.schedule, path) };
        }
        await cancelSchedule(app, action.integrator, reference, { actor: action.actor });
        return seeOther(`${path}?done=cancelled`);
      },
    },
    // A form naming neither changes nothing and shows the page again.
    otherwise: async () => undefined as never,
  };
}

/** Cancel's consequence: the charges it stops (counted over the next year), the one in progress, and that it is final. */
function cancelConfirmation(app: DomainContext, s: Schedule, path: string): Confirmation {
  const amount = formatMoney(s.amountMinor, s.currency);
  const now = app.now();
  const until = new Date(now);
  until.setUTCMonth(until.getUTCMonth() + PLANNED_MONTHS);
  const planned = countRuns(cadenceOf(s), now, until, PLANNED_LIMIT, s.nextRunAt);
  const plannedWords = planned >= PLANNED_LIMIT ? `more than ${PLANNED_LIMIT} charges` : planned === 1 ? '1 charge' : `${planned} charges`;
  return {
    title: 'Cancel this schedule?',
    consequences: [
      s.status === 'suspended'
        ? `No more charges will be made: it is suspended now, and once cancelled it can never be resumed (${plannedWords} of ${amount} ${s.currency} were planned in the next ${PLANNED_MONTHS} months).`
        : `No more charges will be made: ${plannedWords} of ${amount} ${s.currency} were planned in the next ${PLANNED_MONTHS} months${s.nextRunAt ? `, the next on ${consoleTime(s.nextRunAt)}` : ''}.`,
      'A charge already in progress finishes; charges already made are not refunded.',
      'Your integration is notified that it is cancelled.',
      'This cannot be undone: a cancelled schedule cannot be restarted; the customer would have to set up a new one.',
    ],
    action: 'cancel',
    fields: {},
    confirmLabel: 'Cancel the schedule',
    back: { label: 'Keep the schedule', href: path },
  };
}

/** The sentence after a redirect (and its status code, for support), only while the schedule is still in the state the action left it in. */
export function scheduleDoneText(done: string | null, status: string | undefined, nextRun: string | undefined): { text: string; code: string } | undefined {
  if (done === 'resumed' && status === 'active') return { text: `The schedule is active again; its next charge is ${nextRun}.`, code: 'OK.12.11' };
  if (done === 'cancelled' && status === 'cancelled') return { text: 'The schedule is cancelled; it charges nothing more.', code: 'OK.12.20' };
  return undefined;
}
