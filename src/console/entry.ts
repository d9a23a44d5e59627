import { type ConsolePage, type ConsoleRequestContext, openConsoleSession } from '../api/console.ts';
import { type ConsoleRefusal, consoleRefusal } from '../api/console-forms.ts';
import type { PaylinkApp } from '../app.ts';
import { canManageAccount } from '../domain/accounts/rules.ts';
import type { ConsoleIdentity } from '../domain/accounts/sessions.ts';
import type { Messages } from '../domain/errors.ts';

/**
 * The one entry of every signed-in console page: session, role, CSRF, the dispatch of the
 * page's actions and the shaping of their refusals. A page's frontmatter then only loads what
 * its view shows. Built by `consoleEntry` from a session kind, so another console (operators)
 * gets the same shape with its own session and its own notion of an owner.
 */
export interface ConsoleAstro extends ConsoleRequestContext {
  /** A page's response (Astro.response); an endpoint has none and answers with its own. */
  response?: { status?: number };
}

/** What an action is given: the signed-in page (form already past the CSRF check) and the app. */
export interface ActionContext<I = ConsoleIdentity> extends Omit<ConsolePage, 'identity'> {
  app: PaylinkApp;
  identity: I;
  form: FormData;
  /** A 303 to a console path: where an action that is done sends the browser. */
  seeOther(path: string): Response;
}

/** An action answers with a Response (a redirect after it is done) or what the view shows of it. */
export type ConsoleAction<R, I = ConsoleIdentity> = (ctx: ActionContext<I>) => Promise<R | Response>;

export interface ConsoleOptions<R, I = ConsoleIdentity> {
  /** Staff (not owners) get the page's 404: the page does not exist for them. */
  ownerOnly?: boolean;
  /** The actions by the form's `action` field. */
  actions?: Record<string, ConsoleAction<R, I>>;
  /** The action of a form whose `action` names none of `actions`; without it such a form is a 400. */
  otherwise?: ConsoleAction<R, I>;
}

export interface ConsoleView<R, I = ConsoleIdentity> extends Omit<ConsolePage, 'identity'> {
  app: PaylinkApp;
  identity: I;
  owner: boolean;
  /** An owner-only page asked for by staff: the view shows NotFound (the status is 404 already). */
  notFound: boolean;
  /** The form's `action` field ('' on GET). */
  action: string;
  /** What the action handed back; undefined on GET or when it was refused. */
  result: R | undefined;
  refusal: ConsoleRefusal | undefined;
  /** The refusal's messages ({} when there is none), for FormMessages and ConsoleField. */
  messages: Messages;
}

interface SessionKind<I> {
  open(ctx: ConsoleRequestContext): Promise<(Omit<ConsolePage, 'identity'> & { identity: I }) | Response>;
  isOwner(identity: I): boolean;
}

export function consoleEntry<I>(kind: SessionKind<I>) {
  return async function open<R = never>(astro: ConsoleAstro, options: ConsoleOptions<R, I> = {}): Promise<ConsoleView<R, I> | Response> {
    const page = await kind.open(astro);
    if (page instanceof Response) return page;
    const app = astro.locals.paylink;
    const owner = kind.isOwner(page.identity);
    const notFound = options.ownerOnly === true && !owner;
    const setStatus = (status: number) => {
      if (astro.response) astro.response.status = status;
    };
    if (notFound) setStatus(404);
    const view: ConsoleView<R, I> = { ...page, app, owner, notFound, action: page.field('action'), result: undefined, refusal: undefined, messages: {} };
    const dispatching = page.form && !notFound && (options.actions || options.otherwise);
    if (!dispatching || !page.form) return view;
    const run = options.actions?.[view.action] ?? options.otherwise;
    if (!run) {
      view.messages = { '(request)': ['Unknown action.'] };
      setStatus(400);
      return view;
    }
    try {
      const result = await run({ ...page, app, form: page.form, seeOther: (path) => astro.redirect(path, 303) });
      if (result instanceof Response) return result;
      view.result = result;
    } catch (error) {
      view.refusal = consoleRefusal(error);
      view.messages = view.refusal.messages;
      setStatus(view.refusal.status);
    }
    return view;
  };
}

/** The integrators' console: its session cookie; owners may manage the account. */
export const openConsole = consoleEntry<ConsoleIdentity>({ open: openConsoleSession, isOwner: (identity) => canManageAccount(identity.user.role) });
