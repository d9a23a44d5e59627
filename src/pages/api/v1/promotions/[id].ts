import { apiEndpoint, methodNotAllowed } from '../../../../api/endpoint.ts';
import { promotionView } from '../../../../api/presenters/promotions.ts';
import { promotionPatchOf } from '../../../../api/promotion-input.ts';
import { getPromotion, updatePromotion } from '../../../../domain/promotions/manage.ts';
import { promotionUpdateBodySchema } from '../../../../schemas/promotion.ts';

/** GET /api/v1/promotions/{id}: one of the integrator's promotion codes. */
export const GET = apiEndpoint({
  run: async ({ app, integrator, params }) => ({
    code: 'OK.00.00',
    data: { promotion: promotionView(await getPromotion(app.db, integrator, String(params.id ?? ''))) },
  }),
});

/** PATCH /api/v1/promotions/{id}: window, maximum, links, active; null clears one. Allowed while suspended: it takes no money. */
export const PATCH = apiEndpoint({
  body: promotionUpdateBodySchema,
  whileSuspended: true,
  run: async ({ app, integrator, params, body }) => ({
    code: 'OK.06.01',
    data: { promotion: promotionView(await updatePromotion(app, integrator.id, String(params.id ?? ''), promotionPatchOf(body))) },
  }),
});
export const ALL = methodNotAllowed(['GET', 'PATCH']);
