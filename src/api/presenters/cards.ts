import type { CardRegistration } from '../../db/schema.ts';
import type { CardDeletion } from '../../domain/cards/service.ts';
import type { Page } from '../../domain/pagination.ts';
import type { CardRegistrationCompleted, CardRegistrationCreated, CardRegistrationDeleted, CardRegistrationView } from '../../schemas/card-registration.ts';
import type { PageView } from '../../schemas/pagination.ts';
import type { StatusCode } from '../../status-codes.ts';
import { pageView } from './pagination.ts';

/** A card registration: state, brand, last 4 and expiry (never the number). */
export function registrationView(row: CardRegistration): CardRegistrationView {
  return {
    reference: row.reference,
    status: row.status,
    collection: row.collection,
    customer: { name: row.customerName, email: row.customerEmail },
    card: row.cardToken ? { brand: row.brand, last4: row.last4, exp_month: row.expMonth, exp_year: row.expYear } : null,
    created_at: row.createdAt.toISOString(),
    expires_at: row.status === 'pending' ? (row.expiresAt?.toISOString() ?? null) : null,
    activated_at: row.activatedAt?.toISOString() ?? null,
    deleted_at: row.deletedAt?.toISOString() ?? null,
  };
}

/** POST /card-registrations: the reference and the hosted page the customer opens. */
export function presentCreatedRegistration(created: { reference: string; link: string; expiresAt: Date }): { code: 'OK.11.00'; data: CardRegistrationCreated } {
  return { code: 'OK.11.00' as const, data: { reference: created.reference, link: created.link, expires_at: created.expiresAt.toISOString() } };
}

/** DELETE with a card registration reference (spec §4.2): OK.11.20, or OK.11.21 when deleted before. */
export function presentDeletion(d: CardDeletion): { code: StatusCode; data: CardRegistrationDeleted } {
  if (!d.deletedNow) return { code: 'OK.11.21', data: { reference: d.registration.reference, timestamp: d.at.toISOString() } };
  return { code: 'OK.11.20', data: { reference: d.registration.reference, cancelled_schedules: d.cancelledSchedules, timestamp: d.at.toISOString() } };
}

/** The hosted page's card submission: where the browser goes next. */
export function presentCompletedRegistration(row: CardRegistration, token: string): { code: 'OK.11.00'; data: CardRegistrationCompleted } {
  return {
    code: 'OK.11.00' as const,
    data: { reference: row.reference, status: row.status, redirect_url: row.returnUrl ?? `/register/${encodeURIComponent(token)}` },
  };
}

/** GET /api/v1/card-registrations. */
export const registrationPageView = (page: Page<CardRegistration>): PageView<CardRegistrationView> => pageView(page, registrationView, (r) => r.reference);
