import { readPreSessionForm, requestOrigin } from '../../api/console.ts';
import { consoleRefusal } from '../../api/console-forms.ts';
import type { ConsoleAstro } from '../../console/entry.ts';
import type { Messages } from '../../domain/errors.ts';
import { completeSetup } from '../../domain/operators/accounts.ts';

/** The setup link's form (before any session, so with the pre-session token): e-mail and password, then on to sign-in. */
export async function setUpOperator(astro: ConsoleAstro, token: string): Promise<{ messages: Messages; email: string } | Response> {
  const form = await readPreSessionForm(astro);
  if (form instanceof Response) return form;
  const email = form.field('email').slice(0, 254);
  try {
    const made = await completeSetup(
      astro.locals.paylink,
      token,
      { email, password: form.field('password'), confirm: form.field('confirm') },
      requestOrigin(astro),
    );
    return astro.redirect(`/operator/sign-in?email=${encodeURIComponent(made.email)}`, 303);
  } catch (error) {
    const refused = consoleRefusal(error);
    if (astro.response) astro.response.status = refused.status;
    return { messages: refused.messages, email };
  }
}
