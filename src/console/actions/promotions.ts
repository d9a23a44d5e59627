import {
  type PromotionFormValues,
  promotionCreateFromForm,
  promotionFormField,
  promotionFormFields,
  promotionPatchFromForm,
  readPromotionForm,
} from '../../api/promotion-form.ts';
import type { PromotionRow } from '../../db/schema.ts';
import { withFieldNames } from '../../domain/errors.ts';
import { assertOwner, createConsolePromotion, getConsolePromotion, updateConsolePromotion } from '../../domain/promotions/console.ts';
import type { PromotionPatch } from '../../domain/promotions/manage.ts';
import { type Confirmation, isConfirmed, isEditing } from '../confirm.ts';
import type { ConsoleAction } from '../entry.ts';
import { redeemedInWords, windowInWords } from '../promotion-words.ts';

/** What the promotion pages show after a form: a confirm step, or the form again with what was sent. */
export type PromotionOutcome = { confirm: Confirmation } | { values: PromotionFormValues };

/** New promotion code: made, on to its page. Refusals name the form's fields. */
export const createPromotion: ConsoleAction<never> = async ({ app, identity, form, from, seeOther }) => {
  const input = promotionCreateFromForm(readPromotionForm(form));
  const made = await formFields(() => createConsolePromotion(app, identity, input, from));
  return seeOther(`/console/promotions/${made.id}?done=created`);
};

async function formFields<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw withFieldNames(error, promotionFormField);
  }
}

/** A code's page: Save and Deactivate are asked first (the confirm step); Reactivate is done at once. */
export function promotionActions(id: string): { actions: Record<string, ConsoleAction<PromotionOutcome>> } {
  const path = `/console/promotions/${id}`;
  return {
    actions: {
      save: async ({ app, identity, form, field, from, seeOther }) => {
        assertOwner(identity);
        const values = readPromotionForm(form);
        if (isEditing(field)) return { values };
        const patch = promotionPatchFromForm(values);
        const current = await getConsolePromotion(app, identity, id);
        if (!isConfirmed(field)) return { confirm: saveConfirmation(current, patch, values) };
        await formFields(() => updateConsolePromotion(app, identity, id, patch, from));
        return seeOther(`${path}?done=saved`);
      },
      deactivate: async ({ app, identity, field, from, seeOther }) => {
        assertOwner(identity);
        const current = await getConsolePromotion(app, identity, id);
        if (!isConfirmed(field)) return { confirm: deactivateConfirmation(current) };
        await updateConsolePromotion(app, identity, id, { active: false }, from);
        return seeOther(`${path}?done=deactivated`);
      },
      reactivate: async ({ app, identity, from, seeOther }) => {
        await updateConsolePromotion(app, identity, id, { active: true }, from);
        return seeOther(`${path}?done=reactivated`);
      },
    },
  };
}

function saveConfirmation(current: PromotionRow, patch: PromotionPatch, values: PromotionFormValues): Confirmation {
  const after = {
    validFrom: patch.validFrom === undefined ? current.validFrom : patch.validFrom,
    validUntil: patch.validUntil === undefined ? current.validUntil : patch.validUntil,
    maxRedemptions: patch.maxRedemptions === undefined ? current.maxRedemptions : patch.maxRedemptions,
    redeemed: current.redeemed,
  };
  const links = patch.linkIds ? `${patch.linkIds.length} chosen link${patch.linkIds.length === 1 ? '' : 's'}` : 'every link';
  return {
    title: `Save the changes to ${current.code}?`,
    consequences: [
      `It applies on ${links}, ${windowInWords(after) === 'Always' ? 'at any time' : `${windowInWords(after)} (Philippine time)`}.`,
      after.maxRedemptions === null ? `No limit on uses (${after.redeemed} so far).` : `At most ${after.maxRedemptions} uses (${after.redeemed} so far).`,
      'Payments already made keep their discount; the change applies to the next customer who types the code.',
    ],
    action: 'save',
    fields: promotionFormFields(values),
    confirmLabel: 'Save changes',
    back: { label: 'Change', edit: true },
  };
}

function deactivateConfirmation(p: PromotionRow): Confirmation {
  return {
    title: `Deactivate ${p.code}?`,
    consequences: [
      `Customers who type ${p.code} are refused from now on (redeemed: ${redeemedInWords(p)}).`,
      'Payments already made keep their discount.',
      'You can reactivate it later from this page.',
    ],
    action: 'deactivate',
    fields: {},
    confirmLabel: 'Deactivate code',
    back: { label: 'Keep it active', href: `/console/promotions/${p.id}` },
  };
}

/** The line a code's page shows after a form was done (read back from `?done=`), with its status code. */
export function promotionDoneText(done: string | null, p: Pick<PromotionRow, 'code' | 'active'> | undefined): { text: string; code: string } | undefined {
  if (!p) return undefined;
  if (done === 'created') return { text: `${p.code} is made. Customers can type it on the links it applies to.`, code: 'OK.06.00' };
  if (done === 'saved') return { text: 'The changes are saved.', code: 'OK.06.01' };
  if (done === 'deactivated' && !p.active) return { text: `${p.code} is deactivated: customers who type it are refused.`, code: 'OK.06.01' };
  if (done === 'reactivated' && p.active) return { text: `${p.code} is active again.`, code: 'OK.06.01' };
  return undefined;
}
