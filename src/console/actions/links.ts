import type { ConsoleRefusal } from '../../api/console-forms.ts';
import { formFieldOf, type LinkFormValues, linkCreateInput, linkDraftSettings, linkUpdateInput, readLinkForm, withFormFields } from '../../api/link-form.ts';
import type { Messages } from '../../domain/errors.ts';
import { createConsoleLink, getConsoleLink, previewConsoleLink, updateConsoleLink } from '../../domain/links/console.ts';
import { draftLogoUrl, type LinkDraft } from '../../domain/links/preview.ts';
import type { ConsoleAction } from '../entry.ts';

/** New link: saved, on to its editor. */
export const createLink: ConsoleAction<never> = async ({ app, identity, form, from, seeOther }) => {
  const input = linkCreateInput(await readLinkForm(form));
  const link = await withFormFields(() => createConsoleLink(app, identity, input, from));
  return seeOther(`/console/links/${link.slug}?created=1`);
};

/** The editor's Save: only a link this owner can open is saved (else the refusal is its 404). */
export const updateLink =
  (slug: string): ConsoleAction<'saved'> =>
  async ({ app, identity, form, from }) => {
    await getConsoleLink(app, identity, slug);
    const patch = linkUpdateInput(await readLinkForm(form));
    await withFormFields(() => updateConsoleLink(app, identity, slug, patch, from));
    return 'saved';
  };

/** The editor's live preview: the posted draft, written nowhere. */
export const previewLink: ConsoleAction<LinkDraft> = async ({ app, identity, form, field }) =>
  previewConsoleLink(app, identity, field('current_slug') || undefined, linkDraftSettings(await readLinkForm(form)));

/**
 * A refused link form: its messages under the editor's field names, and what was sent, to correct.
 * A logo chosen for it is kept (with its thumbnail) unless the logo itself was refused, so
 * correcting another field does not mean choosing the file again.
 */
export async function refusedLinkForm(
  form: FormData | undefined,
  refusal: ConsoleRefusal | undefined,
): Promise<{ messages: Messages; values?: LinkFormValues; pendingLogo?: string }> {
  if (!form || !refusal) return { messages: {} };
  const messages = Object.fromEntries(Object.entries(refusal.messages).map(([k, v]) => [formFieldOf(k), v]));
  const { values } = await readLinkForm(form);
  const pendingLogo = values.pending_logo && !messages.logo ? await draftLogoUrl(values.pending_logo) : undefined;
  if (!pendingLogo) values.pending_logo = '';
  return { messages, values, pendingLogo };
}
