import type { PromotionRow } from '../../db/schema.ts';
import type { PromotionCreate, PromotionsQuery } from '../../schemas/promotion.ts';
import { type Actor, type AuditAction, recordAudit } from '../accounts/audit.ts';
import { canManagePromotions } from '../accounts/rules.ts';
import type { ConsoleIdentity, RequestOrigin } from '../accounts/sessions.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { LINK_CHOICES_MAX } from '../links/console.ts';
import { listLinks } from '../links/service.ts';
import type { Page } from '../pagination.ts';
import { getPromotion, listPromotions, type PromotionPatch, updatePromotion } from './manage.ts';
import { createPromotion } from './service.ts';

/**
 * The console's door onto promotion codes: the same services as /api/v1/promotions. Every role
 * sees the codes; only owners create, change or deactivate them (for staff those are "not found").
 * Every change writes an audit entry, target the code, in its transaction.
 */
const integratorOf = (identity: ConsoleIdentity) => ({ id: identity.user.integratorId });

export function assertOwner(identity: ConsoleIdentity): void {
  if (!canManagePromotions(identity.user.role)) throw notFound('(request)', 'This page');
}

const actor = (identity: ConsoleIdentity, from: RequestOrigin): Actor => ({
  integratorId: identity.user.integratorId,
  userId: identity.user.id,
  email: identity.user.email,
  role: identity.user.role,
  ...from,
});

export const listConsolePromotions = (app: DomainContext, identity: ConsoleIdentity, query: PromotionsQuery): Promise<Page<PromotionRow>> =>
  listPromotions(app.db, integratorOf(identity), query);

export const getConsolePromotion = (app: DomainContext, identity: ConsoleIdentity, id: string): Promise<PromotionRow> =>
  getPromotion(app.db, integratorOf(identity), id);

export async function createConsolePromotion(
  app: DomainContext,
  identity: ConsoleIdentity,
  input: PromotionCreate,
  from: RequestOrigin,
): Promise<PromotionRow> {
  assertOwner(identity);
  return createPromotion(app, identity.user.integratorId, input, (tx, row) => recordAudit(tx, actor(identity, from), 'promotion.created', row.code, app.now()));
}

export async function updateConsolePromotion(
  app: DomainContext,
  identity: ConsoleIdentity,
  id: string,
  patch: PromotionPatch,
  from: RequestOrigin,
): Promise<PromotionRow> {
  assertOwner(identity);
  return updatePromotion(app, identity.user.integratorId, id, patch, (tx, after, before) => {
    const action: AuditAction = before?.active && !after.active ? 'promotion.deactivated' : 'promotion.updated';
    return recordAudit(tx, actor(identity, from), action, after.code, app.now());
  });
}

export interface PromotionLinkChoice {
  id: string;
  title: string;
  slug: string;
  currency: string;
  active: boolean;
}

/** The links a code may be limited to (the merchant's own, newest first), and their titles for the list. */
export async function promotionLinkChoices(app: DomainContext, identity: ConsoleIdentity): Promise<PromotionLinkChoice[]> {
  const page = await listLinks(app.db, integratorOf(identity), { limit: LINK_CHOICES_MAX });
  return page.items.map(({ id, title, slug, currency, active }) => ({ id, title, slug, currency, active }));
}
