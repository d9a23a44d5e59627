import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { presentDeletion } from '../../../api/presenters/cards.ts';
import { presentCancellation } from '../../../api/presenters/schedules.ts';
import { deleteCardRegistration, isUuid } from '../../../domain/cards/service.ts';
import { notFound } from '../../../domain/errors.ts';
import { cancelSchedule, createSchedule, isScheduleReference } from '../../../domain/schedules/service.ts';
import { referenceBodySchema, scheduleRequestSchema } from '../../../schemas/schedule.ts';

/** Spec §4.1: schedule a recurring charge from a signed payload (HS256 JWT). */
export const POST = apiEndpoint({
  body: scheduleRequestSchema,
  run: async ({ app, integrator, body }) => {
    const { reference } = await createSchedule(app, integrator, body.payload);
    return { code: 'OK.12.00', data: { reference } };
  },
});

/**
 * Spec §4.2: a schedule reference cancels that schedule; a card registration reference (as the
 * spec's sample) deletes the registration and cancels its schedules.
 */
export const DELETE = apiEndpoint({
  body: referenceBodySchema,
  whileSuspended: true,
  idempotent: false,
  run: async ({ app, integrator, body }) => {
    if (isScheduleReference(body.reference)) return presentCancellation(await cancelSchedule(app, integrator, body.reference));
    if (isUuid(body.reference)) return presentDeletion(await deleteCardRegistration(app, integrator, body.reference));
    throw notFound('reference', 'Reference');
  },
});

export const ALL = methodNotAllowed(['POST', 'DELETE']);
