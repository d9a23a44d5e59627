import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { promotionPageView, promotionView } from '../../../api/presenters/promotions.ts';
import { promotionCreateOf } from '../../../api/promotion-input.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { listPromotions } from '../../../domain/promotions/manage.ts';
import { createPromotion } from '../../../domain/promotions/service.ts';
import { parseWith } from '../../../schemas/parse.ts';
import { promotionCreateBodySchema, promotionsQuerySchema } from '../../../schemas/promotion.ts';

/** GET /api/v1/promotions: newest first, cursor-paged (docs/promotions.md). */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const query = parseWith(promotionsQuerySchema, Object.fromEntries(url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { code: 'OK.00.00', data: promotionPageView(await listPromotions(app.db, integrator, query.value)) };
  },
});

/** POST /api/v1/promotions: a new promotion code. */
export const POST = apiEndpoint({
  body: promotionCreateBodySchema,
  run: async ({ app, integrator, body }) => ({
    code: 'OK.06.00',
    data: { promotion: promotionView(await createPromotion(app, integrator.id, promotionCreateOf(body))) },
  }),
});
export const ALL = methodNotAllowed(['GET', 'POST']);
