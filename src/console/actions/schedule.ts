import { consoleAction } from '../../domain/accounts/acting.ts';
import { resumeSchedule } from '../../domain/schedules/resume.ts';
import { cancelSchedule } from '../../domain/schedules/service.ts';
import type { ConsoleAction } from '../entry.ts';

/** A schedule page's forms, Resume and Cancel; each ends in a redirect the page reads back. */
export function scheduleActions(reference: string): { actions: Record<string, ConsoleAction<never>>; otherwise: ConsoleAction<never> } {
  const path = `/console/schedules/${reference}`;
  return {
    actions: {
      resume: async ({ app, identity, from, seeOther }) => {
        const action = await consoleAction(app, identity, from);
        await resumeSchedule(app, action.integrator, reference, { actor: action.actor });
        return seeOther(`${path}?done=resumed`);
      },
      cancel: async ({ app, identity, from, seeOther }) => {
        const action = await consoleAction(app, identity, from);
        await cancelSchedule(app, action.integrator, reference, { actor: action.actor });
        return seeOther(`${path}?done=cancelled`);
      },
    },
    // A form naming neither changes nothing and shows the page again.
    otherwise: async () => undefined as never,
  };
}

/** The sentence after a redirect (and its status code, for support), only while the schedule is still in the state the action left it in. */
export function scheduleDoneText(done: string | null, status: string | undefined, nextRun: string | undefined): { text: string; code: string } | undefined {
  if (done === 'resumed' && status === 'active') return { text: `The schedule is active again; its next charge is ${nextRun}.`, code: 'OK.12.11' };
  if (done === 'cancelled' && status === 'cancelled') return { text: 'The schedule is cancelled; it charges nothing more.', code: 'OK.12.20' };
  return undefined;
}
