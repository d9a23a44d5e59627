import { z } from 'zod';
import type { Link } from '../../db/schema.ts';
import {
  type Item,
  type ItemInput,
  itemsSchema,
  type LinkItemInput,
  linkItemsInputSchema,
  type Question,
  questionsSchema,
  type TipConfig,
  type TipInput,
  tipInputSchema,
  tipSchema,
} from '../../schemas/link-sale.ts';
import { issuesToMessages } from '../../schemas/parse.ts';
import { formatDecimal, MoneyError, parseAmount } from '../money.ts';

/**
 * What a link sells beyond one amount, as the links editor (src/domain/links/editor.ts) checks and
 * stores it: questions, items with quantities, a tip and whether it takes promotion codes. The doors
 * give prices as decimals in the link's currency; they are stored as minor units (src/schemas/link-sale.ts).
 * Refusals name the editor's settings (`items.0.unitAmount`, `tip.presets.values.1`, `questions.0.label.en`).
 */
export interface SaleSettings {
  questions: Question[];
  /** `image`: a new image's source, null to remove it, absent to keep the image of the item with the same id (src/domain/links/item-images.ts). */
  items: LinkItemInput[];
  tip: TipInput | null;
  promotionCodes: boolean;
}

export const NO_SALE: SaleSettings = { questions: [], items: [], tip: null, promotionCodes: false };

export interface SaleValues {
  questions: Question[];
  items: Item[];
  tip: TipConfig | null;
  promotionCodes: boolean;
}

type Problem = (field: string, message: string) => void;

/** The stored items' and tip's names of a price, as the editor names it. */
const editorName = (path: string) => path.replace(/unit_amount(_minor)?$/, 'unitAmount');

function report(problem: Problem, messages: Record<string, string[]>): void {
  for (const [field, list] of Object.entries(messages)) for (const message of list) problem(editorName(field), message);
}

/** Minor units of a decimal price, or undefined after reporting why it is not one (`currency` unknown: unchecked). */
function minorOf(value: unknown, currency: string | null, field: string, problem: Problem): string | undefined {
  if (currency === null) return undefined;
  try {
    return parseAmount(value, currency).minor.toString();
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    problem(field, error.message);
    return undefined;
  }
}

/**
 * Checks the sale settings and turns prices into minor units; `currency` is null when the link's
 * currency is itself refused (the prices are then checked only for their shape).
 */
export function saleValues(s: SaleSettings, currency: string | null, problem: Problem): SaleValues {
  const out: SaleValues = { questions: [], items: [], tip: null, promotionCodes: s.promotionCodes };

  const questions = questionsSchema.safeParse(s.questions);
  if (questions.success) out.questions = questions.data;
  else report(problem, issuesToMessages(questions.error.issues, 'questions'));

  const items = linkItemsInputSchema(z.string()).safeParse(s.items);
  if (!items.success) report(problem, issuesToMessages(items.error.issues, 'items'));
  else {
    // Images are read and stored by the links editor (src/domain/links/item-images.ts), which sets `image`.
    const stored = items.data.map((item, i) => {
      const { unit_amount, image: _image, ...rest } = item;
      return { ...rest, unit_amount_minor: minorOf(unit_amount, currency, `items.${i}.unitAmount`, problem) ?? '1' };
    });
    const checked = itemsSchema.safeParse(stored);
    if (checked.success) out.items = checked.data;
    else report(problem, issuesToMessages(checked.error.issues, 'items'));
  }

  if (s.tip !== null) {
    const tip = tipInputSchema.safeParse(s.tip);
    if (!tip.success) report(problem, issuesToMessages(tip.error.issues, 'tip'));
    else {
      const { presets } = tip.data;
      const values =
        presets.kind === 'percent'
          ? presets
          : { kind: presets.kind, values: presets.values.map((v, i) => minorOf(v, currency, `tip.presets.values.${i}`, problem) ?? '1') };
      const checked = tipSchema.safeParse({ ...tip.data, presets: values });
      if (checked.success) out.tip = checked.data;
      else report(problem, issuesToMessages(checked.error.issues, 'tip'));
    }
  }
  return out;
}

/** A link's sale settings with prices as decimals: as the editor takes them and the API shows them. */
export interface StoredSale {
  questions: Question[];
  items: (Omit<Item, 'unit_amount_minor' | 'image'> & { unit_amount: string })[];
  tip: (Omit<TipConfig, 'presets'> & { presets: { kind: 'percent'; values: number[] } | { kind: 'amount'; values: string[] } }) | null;
  promotionCodes: boolean;
}

/** A link's stored sale settings as the editor takes them (prices back to decimals). */
export function saleSettingsOf(link: Pick<Link, 'currency' | 'questions' | 'items' | 'tip' | 'promotionCodes'>): StoredSale {
  const money = (minor: string) => formatDecimal(BigInt(minor), link.currency);
  const tip = link.tip;
  return {
    questions: link.questions,
    items: link.items.map(({ unit_amount_minor, image: _image, ...item }) => ({ ...item, unit_amount: money(unit_amount_minor) })),
    tip:
      tip &&
      (tip.presets.kind === 'percent' ? { ...tip, presets: tip.presets } : { ...tip, presets: { kind: 'amount', values: tip.presets.values.map(money) } }),
    promotionCodes: link.promotionCodes,
  };
}

/**
 * The editor's preview: what of the draft a save would keep, each question, item and the tip
 * checked alone, so one slip hides only its own part while the merchant types.
 */
export function draftSale(s: SaleSettings, currency: string): SaleValues {
  const alone = (part: Partial<SaleSettings>) => {
    let ok = true;
    const values = saleValues({ ...NO_SALE, ...part }, currency, () => {
      ok = false;
    });
    return ok ? values : undefined;
  };
  const list = <T>(x: unknown): T[] => (Array.isArray(x) ? x : []);
  return {
    questions: list<Question>(s.questions).flatMap((q) => alone({ questions: [q] })?.questions ?? []),
    items: list<ItemInput>(s.items).flatMap((i) => alone({ items: [i] })?.items ?? []),
    tip: s.tip ? (alone({ tip: s.tip })?.tip ?? null) : null,
    promotionCodes: s.promotionCodes === true,
  };
}
