import type { SaleSettings } from '../domain/links/editor-sale.ts';
import type { Question } from '../schemas/link-sale.ts';
import type { locales } from '../schemas/locales.ts';
import { slugFromTitle } from '../schemas/slug.ts';

/**
 * The sale part of the console's link editor form (src/components/LinkSaleFields.astro): questions,
 * items, the tip and the promotion code switch as plain text values, and their way into the
 * links API's settings (src/schemas/link.ts), which check them. Inputs are named as the API's
 * fields (`questions.0.label.en`, `items.1.unit_amount`), so a refusal lands beside its input; a
 * slot left empty (a question "not asked", an item without name and price) is left out, and the
 * refused form is drawn again from the kept ones, so the numbers still match.
 */
type Locale = (typeof locales)[number];
type Texts = Record<Locale, string>;

export interface QuestionFormValues {
  /** Kept from the saved question (answers are stored by it); '' for a new one: made from the label. */
  id: string;
  /** '' : not asked (the slot is left out). */
  type: '' | Question['type'];
  label: Texts;
  help: Texts;
  required: boolean;
  max_length: string;
  min: string;
  max: string;
  /** A dropdown's options, one label per line (English). */
  options: string;
  /**
   * The saved options as JSON (value and every language), carried in the form so a line kept as it
   * was keeps its value (answers are stored by it) and the translations the API gave it.
   */
  saved_options: string;
  terms_url: string;
}

export interface ItemFormValues {
  id: string;
  name: Texts;
  unit_amount: string;
  quantity: { min: string; max: string; default: string };
}

export interface SaleFormValues {
  questions: QuestionFormValues[];
  items: ItemFormValues[];
  tip_kind: '' | 'percent' | 'amount';
  /** The presets, separated by commas ("10, 15, 20" or "20.00, 50.00"). */
  tip_values: string;
  tip_custom: boolean;
  promotion_codes: boolean;
}

const LOCALES = ['en', 'fil', 'es'] as const;
const QUESTION_TYPES = ['text', 'number', 'dropdown', 'checkbox', 'date'] as const;
const texts = (read: (l: Locale) => string): Texts => ({ en: read('en'), fil: read('fil'), es: read('es') });

export const emptySaleForm = (): SaleFormValues => ({ questions: [], items: [], tip_kind: '', tip_values: '', tip_custom: true, promotion_codes: false });

/** A link's saved sale settings as form values (prices as decimals already). */
export function saleForm(s: SaleSettings): SaleFormValues {
  const text = (t: Partial<Texts> | undefined) => texts((l) => t?.[l] ?? '');
  return {
    questions: s.questions.map((q) => ({
      id: q.id,
      type: q.type,
      label: text(q.label),
      help: text(q.help),
      required: q.required,
      max_length: q.type === 'text' ? String(q.max_length) : '',
      min: q.type === 'number' && q.min !== undefined ? String(q.min) : '',
      max: q.type === 'number' && q.max !== undefined ? String(q.max) : '',
      options: q.type === 'dropdown' ? q.options.map((o) => o.label.en).join('\n') : '',
      saved_options: q.type === 'dropdown' ? JSON.stringify(q.options) : '',
      terms_url: q.type === 'checkbox' ? (q.terms_url ?? '') : '',
    })),
    items: s.items.map((i) => ({
      id: i.id,
      name: text(i.name),
      unit_amount: String(i.unit_amount),
      quantity: { min: String(i.quantity?.min ?? 1), max: String(i.quantity?.max ?? 1), default: String(i.quantity?.default ?? 1) },
    })),
    tip_kind: s.tip?.presets.kind ?? '',
    tip_values: s.tip ? s.tip.presets.values.join(', ') : '',
    tip_custom: s.tip?.custom ?? true,
    promotion_codes: s.promotionCodes,
  };
}

/** Reads the posted sale inputs; empty slots are left out. */
export function readSaleForm(form: FormData): SaleFormValues {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v.trim() : '';
  };
  const slots = (prefix: string) => {
    const found = new Set<number>();
    for (const key of form.keys()) {
      const m = new RegExp(`^${prefix}\\.(\\d{1,2})\\.`).exec(key);
      if (m) found.add(Number(m[1]));
    }
    return [...found].sort((a, b) => a - b);
  };
  const questions = slots('questions')
    .map((i): QuestionFormValues => {
      const at = (k: string) => text(`questions.${i}.${k}`);
      const type = at('type');
      return {
        id: at('id'),
        type: (QUESTION_TYPES as readonly string[]).includes(type) ? (type as Question['type']) : '',
        label: texts((l) => at(`label.${l}`)),
        help: texts((l) => at(`help.${l}`)),
        required: form.get(`questions.${i}.required`) === 'on',
        max_length: at('max_length'),
        min: at('min'),
        max: at('max'),
        options: at('options'),
        saved_options: at('saved_options'),
        terms_url: at('terms_url'),
      };
    })
    .filter((q) => q.type !== '');
  const items = slots('items')
    .map(
      (i): ItemFormValues => ({
        id: text(`items.${i}.id`),
        name: texts((l) => text(`items.${i}.name.${l}`)),
        unit_amount: text(`items.${i}.unit_amount`),
        quantity: { min: text(`items.${i}.quantity.min`), max: text(`items.${i}.quantity.max`), default: text(`items.${i}.quantity.default`) },
      }),
    )
    .filter((item) => item.name.en !== '' || item.unit_amount !== '' || LOCALES.some((l) => item.name[l] !== ''));
  const kind = text('tip.kind');
  return {
    questions,
    items,
    tip_kind: kind === 'percent' || kind === 'amount' ? kind : '',
    tip_values: text('tip.values'),
    tip_custom: form.get('tip.custom') === 'on',
    promotion_codes: form.get('promotion_codes') === 'on',
  };
}

/** An id made from a label, unique among `taken` (ids are a-z, 0-9 and _, starting with a letter). */
function idFrom(label: string, fallback: string, taken: Set<string>): string {
  const base =
    slugFromTitle(label)
      .replace(/-/g, '_')
      .replace(/^[^a-z]+/, '')
      .slice(0, 32) || fallback;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** A saved option, as far as the posted JSON holds one (it is checked again on save like any option). */
interface SavedOption {
  value: string;
  label: { en: string };
}
const isSavedOption = (o: unknown): o is SavedOption =>
  typeof o === 'object' && o !== null && typeof (o as SavedOption).value === 'string' && typeof (o as SavedOption).label?.en === 'string';

/** The dropdown's lines as options: a line as saved keeps its option; a new line gets a value made from it. */
function dropdownOptions(lines: string[], savedJson: string) {
  let saved: SavedOption[] = [];
  try {
    const parsed: unknown = JSON.parse(savedJson || '[]');
    if (Array.isArray(parsed)) saved = parsed.filter(isSavedOption);
  } catch {
    // A mangled carry-over only loses the old values: the lines become new options.
  }
  const values = new Set(saved.map((o) => o.value));
  return lines.map((line, i) => saved.find((o) => o.label.en === line) ?? { value: idFrom(line, `option_${i + 1}`, values), label: { en: line } });
}

/** Whole numbers as numbers, anything else as typed (the schema names it); '' absent. */
const whole = (v: string) => (v === '' ? undefined : /^-?\d{1,10}$/.test(v) ? Number(v) : v);
const localized = (t: Texts) => Object.fromEntries(LOCALES.filter((l) => l === 'en' || t[l] !== '').map((l) => [l, t[l]]));

/** The form's sale settings in the API's words, for the API's schema to check. */
export function saleSettingsOfForm(v: SaleFormValues, withItems: boolean) {
  const questionIds = new Set(v.questions.map((q) => q.id).filter(Boolean));
  const itemIds = new Set(v.items.map((i) => i.id).filter(Boolean));
  const questions = v.questions.map((q, n) => {
    const options = q.options
      .split('\n')
      .map((o) => o.trim())
      .filter(Boolean);
    return {
      id: q.id || idFrom(q.label.en, `question_${n + 1}`, questionIds),
      type: q.type,
      label: localized(q.label),
      ...(LOCALES.some((l) => q.help[l] !== '') ? { help: localized(q.help) } : {}),
      required: q.required,
      ...(q.type === 'text' && q.max_length !== '' ? { max_length: whole(q.max_length) } : {}),
      ...(q.type === 'number' ? { min: whole(q.min), max: whole(q.max) } : {}),
      ...(q.type === 'dropdown' ? { options: dropdownOptions(options, q.saved_options) } : {}),
      ...(q.type === 'checkbox' && q.terms_url !== '' ? { terms_url: q.terms_url } : {}),
    };
  });
  const items = withItems
    ? v.items.map((i, n) => ({
        id: i.id || idFrom(i.name.en, `item_${n + 1}`, itemIds),
        name: localized(i.name),
        unit_amount: i.unit_amount,
        quantity: { min: whole(i.quantity.min) ?? 1, max: whole(i.quantity.max) ?? 1, default: whole(i.quantity.default) ?? 1 },
      }))
    : [];
  const presets = v.tip_values
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const tip =
    v.tip_kind === ''
      ? null
      : {
          presets: { kind: v.tip_kind, values: v.tip_kind === 'percent' ? presets.map((p) => whole(p.replace(/%$/, '').trim()) ?? p) : presets },
          custom: v.tip_custom,
        };
  return { questions, items, tip, promotion_codes: v.promotion_codes };
}

/** Where a refusal of a sale setting is shown: the input it belongs to. */
export const saleFormField = (key: string) =>
  key
    .replace(/^(items\.\d+\.quantity)$/, '$1.min')
    .replace(/^(questions\.\d+\.options)\..*$/, '$1')
    .replace(/^tip\.presets\.values(\.\d+)?$/, 'tip.values')
    .replace(/^tip\.presets(\.kind)?$/, 'tip.kind');
