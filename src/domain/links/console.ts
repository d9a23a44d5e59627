import type { Link } from '../../db/schema.ts';
import type { LinksQuery } from '../../schemas/link.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import { canEditLinks } from '../accounts/rules.ts';
import type { ConsoleIdentity, RequestOrigin } from '../accounts/sessions.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Page } from '../pagination.ts';
import { type CurrencyChoice, currencyChoices } from './currencies.ts';
import { createLink, type LinkPatch, type LinkSettings, type NewLink, updateLink } from './editor.ts';
import { type MethodChoices, methodChoices } from './payment-methods.ts';
import { draftLink, type LinkDraft } from './preview.ts';
import { getLink, listLinks, paidCounts } from './service.ts';

/**
 * The console's door onto payment links: the same list, editor and services as /api/v1/links.
 * Every role sees the links (to copy an address or a QR code for a customer); only owners create,
 * change or preview them (for staff those are "not found", like another integrator's link).
 * Every save writes an audit entry in its transaction.
 */
const integratorOf = (identity: ConsoleIdentity) => ({ id: identity.user.integratorId });

function assertOwner(identity: ConsoleIdentity): void {
  if (!canEditLinks(identity.user.role)) throw notFound('(request)', 'This page');
}

const actor = (identity: ConsoleIdentity, from: RequestOrigin): Actor => ({
  integratorId: identity.user.integratorId,
  userId: identity.user.id,
  email: identity.user.email,
  ...from,
});

export interface ConsoleLinkPage {
  page: Page<Link>;
  /** Successful payments per link id (absent: none). */
  paid: Map<string, number>;
}

/** /console/links: one page of the integrator's links, newest first, with their paid counts (two queries). */
export async function listConsoleLinks(app: DomainContext, identity: ConsoleIdentity, query: LinksQuery): Promise<ConsoleLinkPage> {
  const page = await listLinks(app.db, integratorOf(identity), query);
  return {
    page,
    paid: await paidCounts(
      app.db,
      page.items.map((l) => l.id),
    ),
  };
}

/** The most links the payments filter offers to pick from; past it the newest are offered (a typed slug still filters). */
export const LINK_CHOICES_MAX = 500;

/** The Payments filter's list of links to pick from: the integrator's own links (slug and title), newest first. */
export async function linkChoices(app: DomainContext, identity: ConsoleIdentity): Promise<Pick<Link, 'slug' | 'title' | 'active'>[]> {
  const page = await listLinks(app.db, integratorOf(identity), { limit: LINK_CHOICES_MAX });
  return page.items.map(({ slug, title, active }) => ({ slug, title, active }));
}

export async function getConsoleLink(app: DomainContext, identity: ConsoleIdentity, slug: string): Promise<Link> {
  return getLink(app.db, integratorOf(identity), slug);
}

export async function createConsoleLink(app: DomainContext, identity: ConsoleIdentity, input: NewLink, from: RequestOrigin): Promise<Link> {
  assertOwner(identity);
  return createLink(app, integratorOf(identity), input, (tx, link) => recordAudit(tx, actor(identity, from), 'link.created', link.slug, app.now()));
}

export async function updateConsoleLink(app: DomainContext, identity: ConsoleIdentity, slug: string, patch: LinkPatch, from: RequestOrigin): Promise<Link> {
  assertOwner(identity);
  return updateLink(app, integratorOf(identity), slug, patch, (tx, link) => recordAudit(tx, actor(identity, from), 'link.updated', link.slug, app.now()));
}

/** The editor's lists: the payment methods and currencies the owner's acquirer takes, and the account's default methods. */
export interface EditorChoices extends MethodChoices {
  currencies: CurrencyChoice[];
}

export async function consoleEditorChoices(app: DomainContext, identity: ConsoleIdentity): Promise<EditorChoices> {
  assertOwner(identity);
  const acquirer = await app.connectors.forIntegrator(identity.user.integratorId);
  return { ...(await methodChoices(app, identity.user.integratorId)), currencies: currencyChoices(acquirer) };
}

/**
 * The editor's live preview: the draft as its payment page would show it, written nowhere.
 * `slug` names the link being edited (its stored logo shows until a new one is chosen).
 */
export async function previewConsoleLink(app: DomainContext, identity: ConsoleIdentity, slug: string | undefined, settings: LinkSettings): Promise<LinkDraft> {
  assertOwner(identity);
  const current = slug ? await getLink(app.db, integratorOf(identity), slug) : undefined;
  return draftLink(app, identity.user.integratorId, settings, current);
}
