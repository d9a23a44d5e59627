import { readPreSessionForm, requestOrigin } from '../../api/console.ts';
import { consoleRefusal } from '../../api/console-forms.ts';
import { acceptInvite } from '../../domain/accounts/users.ts';
import type { Messages } from '../../domain/errors.ts';
import type { ConsoleAstro } from '../entry.ts';

/** The invitation's form (before any session, so with the pre-session token): a password, then on to sign-in. */
export async function acceptInvitation(astro: ConsoleAstro, token: string): Promise<Messages | Response> {
  const form = await readPreSessionForm(astro);
  if (form instanceof Response) return form;
  try {
    await acceptInvite(astro.locals.paylink, token, { password: form.field('password'), confirm: form.field('confirm') }, requestOrigin(astro));
    return astro.redirect('/console/sign-in', 303);
  } catch (error) {
    const refused = consoleRefusal(error);
    if (astro.response) astro.response.status = refused.status;
    return refused.messages;
  }
}
