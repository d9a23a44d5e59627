import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { presentRefund } from '../../../api/presenters/refunds.ts';
import { refundPayment } from '../../../domain/refunds/service.ts';
import { refundRequestSchema } from '../../../schemas/refund.ts';

/** Spec §4.3: FULL refund without `amount` (OK.02.00), PARTIAL with it (OK.04.00). */
/** Allowed while suspended: giving a customer money back takes none (docs/api.md, "Suspended integrators"). */
export const POST = apiEndpoint({
  body: refundRequestSchema,
  whileSuspended: true,
  run: async ({ app, integrator, body, request }) =>
    presentRefund(
      await refundPayment(app, integrator, {
        transactionId: body.transaction_id,
        notifyUser: body.notify_user,
        reason: body.reason,
        amount: body.amount,
        idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
      }),
    ),
});
export const ALL = methodNotAllowed(['POST']);
