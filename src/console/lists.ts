import { consoleRefusal } from '../api/console-forms.ts';
import { type ConsoleListForm, type ConsoleListResult, loadConsoleList } from '../api/console-lists.ts';
import type { PaylinkApp } from '../app.ts';
import type { PromotionRow } from '../db/schema.ts';
import type { ConsoleIdentity } from '../domain/accounts/sessions.ts';
import { invalidFields, type Messages } from '../domain/errors.ts';
import { type ConsoleLinkPage, listConsoleLinks } from '../domain/links/console.ts';
import type { Page } from '../domain/pagination.ts';
import { listConsolePromotions, promotionLinkChoices } from '../domain/promotions/console.ts';
import { linksQuerySchema } from '../schemas/link.ts';
import { parseWith } from '../schemas/parse.ts';
import { promotionsQuerySchema } from '../schemas/promotion.ts';
import { type ConsoleAstro, type ConsoleView, openConsole } from './entry.ts';

/** A list page: its GET form, the API's list service, the presenter of a row and a row's id. */
export interface ConsoleListPage<Q, Row, View> {
  form(url: URL): ConsoleListForm<Q>;
  list(app: PaylinkApp, integrator: { id: string }, query: Q): Promise<Page<Row>>;
  row(row: Row): View;
  idOf(row: Row): string;
}

export interface OpenedList<View> extends ConsoleListResult<View>, Pick<ConsoleView<never>, 'identity' | 'csrf'> {
  /** The filter form's values as given, to show them again. */
  values: Record<string, string>;
}

/** The entry of a list page (owners and staff): the console opened, then the signed-in integrator's list. */
export async function openConsoleList<Q, Row, View>(astro: ConsoleAstro, page: ConsoleListPage<Q, Row, View>): Promise<OpenedList<View> | Response> {
  const view = await openConsole(astro);
  if (view instanceof Response) return view;
  const form = page.form(astro.url);
  const integrator = { id: view.identity.user.integratorId };
  const loaded = await loadConsoleList(form, (query) => page.list(view.app, integrator, query), page.row, page.idOf);
  if (loaded.status && astro.response) astro.response.status = loaded.status;
  return { ...loaded, identity: view.identity, csrf: view.csrf, values: form.values };
}

/** The links page's list (owners): the API's query from the address; a malformed or foreign cursor is a refusal, no list. */
export async function loadLinkList(astro: ConsoleAstro, identity: ConsoleIdentity): Promise<{ list?: ConsoleLinkPage; messages: Messages }> {
  try {
    const query = parseWith(linksQuerySchema, Object.fromEntries(astro.url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { list: await listConsoleLinks(astro.locals.paylink, identity, query.value), messages: {} };
  } catch (error) {
    const refused = consoleRefusal(error);
    if (astro.response) astro.response.status = refused.status;
    return { messages: refused.messages };
  }
}

/** The promotion codes page's list (every role), with the titles of the links they name; a bad cursor is a refusal, no list. */
export async function loadPromotionList(
  astro: ConsoleAstro,
  identity: ConsoleIdentity,
): Promise<{ list?: Page<PromotionRow>; titles: Map<string, string>; messages: Messages }> {
  const app = astro.locals.paylink;
  const titles = new Map((await promotionLinkChoices(app, identity)).map((l) => [l.id, l.title]));
  try {
    const query = parseWith(promotionsQuerySchema, Object.fromEntries(astro.url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { list: await listConsolePromotions(app, identity, query.value), titles, messages: {} };
  } catch (error) {
    const refused = consoleRefusal(error);
    if (astro.response) astro.response.status = refused.status;
    return { titles, messages: refused.messages };
  }
}
