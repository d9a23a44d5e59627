import type { SaleSettings } from '../domain/links/editor-sale.ts';
import { itemImageUrl } from '../domain/links/item-images.ts';
import { MAX_LOGO_BYTES } from '../domain/links/logos.ts';
import type { Link } from '../domain/links/service.ts';
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
  /** Their Filipino and Spanish labels, line by line in the English order; a blank line: shown in English. */
  option_labels: { fil: string; es: string };
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
  /** The saved image's address (/assets/img_…), shown beside the file input; '' none. */
  saved_image: string;
  remove_image: boolean;
  /** An image chosen on an earlier, refused try (data: URL), carried as the logo is; '' none. */
  pending_image: string;
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
      option_labels: {
        fil: q.type === 'dropdown' ? q.options.map((o) => o.label.fil ?? '').join('\n') : '',
        es: q.type === 'dropdown' ? q.options.map((o) => o.label.es ?? '').join('\n') : '',
      },
      saved_options: q.type === 'dropdown' ? JSON.stringify(q.options) : '',
      terms_url: q.type === 'checkbox' ? (q.terms_url ?? '') : '',
    })),
    items: s.items.map((i) => ({
      id: i.id,
      name: text(i.name),
      unit_amount: String(i.unit_amount),
      quantity: { min: String(i.quantity?.min ?? 1), max: String(i.quantity?.max ?? 1), default: String(i.quantity?.default ?? 1) },
      saved_image: '',
      remove_image: false,
      pending_image: '',
    })),
    tip_kind: s.tip?.presets.kind ?? '',
    tip_values: s.tip ? s.tip.presets.values.join(', ') : '',
    tip_custom: s.tip?.custom ?? true,
    promotion_codes: s.promotionCodes,
  };
}

/** A saved link's sale form, with each item's saved image. */
export function linkSaleForm(link: Link, s: SaleSettings): SaleFormValues {
  const v = saleForm(s);
  return { ...v, items: v.items.map((item, i) => ({ ...item, saved_image: itemImageUrl(link.items[i] ?? {}) ?? '' })) };
}

export const PENDING_UPLOAD_PREFIX = 'data:application/octet-stream;base64,';

/**
 * An upload carried from a refused try: only a data: URL of base64 bytes within the logo limit (never
 * a path: the image reader would open files), checked again like a fresh upload when saved.
 */
export const isPendingUpload = (value: string) =>
  value.startsWith(PENDING_UPLOAD_PREFIX) &&
  value.length - PENDING_UPLOAD_PREFIX.length <= Math.ceil(MAX_LOGO_BYTES / 3) * 4 &&
  /^[A-Za-z0-9+/]+={0,2}$/.test(value.slice(PENDING_UPLOAD_PREFIX.length));

/**
 * A posted file as a data: URL to carry and save, or the refusal of one too large to carry;
 * undefined when no file was chosen.
 */
export async function uploadOf(file: FormDataEntryValue | null, what: 'logo' | 'image'): Promise<{ dataUrl: string } | { refusal: string } | undefined> {
  if (!(file instanceof File) || file.size === 0) return undefined;
  if (file.size > MAX_LOGO_BYTES) return { refusal: `the ${what} is ${Math.ceil(file.size / 1024)} KiB; at most 512 KiB is accepted` };
  return { dataUrl: `${PENDING_UPLOAD_PREFIX}${Buffer.from(await file.arrayBuffer()).toString('base64')}` };
}

/** Reads the posted sale inputs; empty slots are left out. A refused image file is named in `messages` (`items.N.image`). */
export async function readSaleForm(form: FormData, messages: Record<string, string[]>): Promise<SaleFormValues> {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v.trim() : '';
  };
  // Choices and their translations pair up by line, so leading blank lines count: no trim of the whole.
  const lines = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v.replace(/\r/g, '').trimEnd() : '';
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
        options: lines(`questions.${i}.options`),
        option_labels: { fil: lines(`questions.${i}.options.fil`), es: lines(`questions.${i}.options.es`) },
        saved_options: at('saved_options'),
        terms_url: at('terms_url'),
      };
    })
    .filter((q) => q.type !== '');
  const posted = await Promise.all(
    slots('items').map(async (i) => {
      const remove = form.get(`items.${i}.remove_image`) === 'on';
      const upload = remove ? undefined : await uploadOf(form.get(`items.${i}.image`), 'image');
      const pending = text(`items.${i}.pending_image`);
      const saved = text(`items.${i}.saved_image`);
      const item: ItemFormValues = {
        id: text(`items.${i}.id`),
        name: texts((l) => text(`items.${i}.name.${l}`)),
        unit_amount: text(`items.${i}.unit_amount`),
        quantity: { min: text(`items.${i}.quantity.min`), max: text(`items.${i}.quantity.max`), default: text(`items.${i}.quantity.default`) },
        saved_image: /^\/assets\/img_[0-9a-f]{32}$/.test(saved) ? saved : '',
        remove_image: remove,
        pending_image: upload && 'dataUrl' in upload ? upload.dataUrl : !remove && !upload && isPendingUpload(pending) ? pending : '',
      };
      return { item, refusal: upload && 'refusal' in upload ? upload.refusal : undefined };
    }),
  );
  const kept = posted.filter(({ item }) => item.name.en !== '' || item.unit_amount !== '' || LOCALES.some((l) => item.name[l] !== ''));
  for (const [n, { refusal }] of kept.entries()) if (refusal) messages[`items.${n}.image`] = [refusal];
  const items = kept.map(({ item }) => item);
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

const linesOf = (text: string) => text.split('\n').map((line) => line.trim());

/**
 * The dropdown's lines as options: a line as saved keeps its option (answers are stored by its
 * value); a new line gets a value made from it. Line k of the Filipino and Spanish boxes labels
 * the choice on line k of the English box.
 */
function dropdownOptions(q: Pick<QuestionFormValues, 'options' | 'option_labels' | 'saved_options'>) {
  const savedJson = q.saved_options;
  const translated = { fil: linesOf(q.option_labels.fil), es: linesOf(q.option_labels.es) };
  let saved: SavedOption[] = [];
  try {
    const parsed: unknown = JSON.parse(savedJson || '[]');
    if (Array.isArray(parsed)) saved = parsed.filter(isSavedOption);
  } catch {
    // A mangled carry-over only loses the old values: the lines become new options.
  }
  const values = new Set(saved.map((o) => o.value));
  return linesOf(q.options).flatMap((line, k) => {
    if (line === '') return [];
    const label = { en: line, ...(translated.fil[k] ? { fil: translated.fil[k] } : {}), ...(translated.es[k] ? { es: translated.es[k] } : {}) };
    return [{ value: saved.find((o) => o.label.en === line)?.value ?? idFrom(line, `option_${k + 1}`, values), label }];
  });
}

/** Translations of dropdown choices on lines that have no English choice: refused, naming the box. */
export function optionLabelProblems(questions: readonly QuestionFormValues[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [n, q] of questions.entries()) {
    if (q.type !== 'dropdown') continue;
    const english = linesOf(q.options);
    for (const l of ['fil', 'es'] as const) {
      const stray = linesOf(q.option_labels[l]).findIndex((line, k) => line !== '' && !english[k]);
      if (stray >= 0)
        out[`questions.${n}.options.${l}`] = [`line ${stray + 1} has no English choice on the same line: keep one translation per line, in the English order`];
    }
  }
  return out;
}

/** Whole numbers as numbers, anything else as typed (the schema names it); '' absent. */
const whole = (v: string) => (v === '' ? undefined : /^-?\d{1,10}$/.test(v) ? Number(v) : v);
const localized = (t: Texts) => Object.fromEntries(LOCALES.filter((l) => l === 'en' || t[l] !== '').map((l) => [l, t[l]]));

/** The form's sale settings in the API's words, for the API's schema to check. */
export function saleSettingsOfForm(v: SaleFormValues, withItems: boolean) {
  const questionIds = new Set(v.questions.map((q) => q.id).filter(Boolean));
  const itemIds = new Set(v.items.map((i) => i.id).filter(Boolean));
  const questions = v.questions.map((q, n) => {
    return {
      id: q.id || idFrom(q.label.en, `question_${n + 1}`, questionIds),
      type: q.type,
      label: localized(q.label),
      ...(LOCALES.some((l) => q.help[l] !== '') ? { help: localized(q.help) } : {}),
      required: q.required,
      ...(q.type === 'text' && q.max_length !== '' ? { max_length: whole(q.max_length) } : {}),
      ...(q.type === 'number' ? { min: whole(q.min), max: whole(q.max) } : {}),
      ...(q.type === 'dropdown' ? { options: dropdownOptions(q) } : {}),
      ...(q.type === 'checkbox' && q.terms_url !== '' ? { terms_url: q.terms_url } : {}),
    };
  });
  const items = withItems
    ? v.items.map((i, n) => ({
        id: i.id || idFrom(i.name.en, `item_${n + 1}`, itemIds),
        name: localized(i.name),
        unit_amount: i.unit_amount,
        quantity: { min: whole(i.quantity.min) ?? 1, max: whole(i.quantity.max) ?? 1, default: whole(i.quantity.default) ?? 1 },
        // Absent keeps the saved image of the item with this id.
        ...(i.remove_image ? { image: null } : i.pending_image ? { image: i.pending_image } : {}),
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
    .replace(/^(questions\.\d+\.options)\.\d+\.label\.(fil|es)$/, '$1.$2')
    .replace(/^(questions\.\d+\.options)\.(?!fil$|es$).*$/, '$1')
    .replace(/^tip\.presets\.values(\.\d+)?$/, 'tip.values')
    .replace(/^tip\.presets(\.kind)?$/, 'tip.kind');
