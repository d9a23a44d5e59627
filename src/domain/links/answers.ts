import type { Answer, Question } from '../../schemas/link-sale.ts';
import { isStorableText } from '../../schemas/text.ts';

/**
 * The customer's answers to a link's custom questions, read from a form post or a JSON
 * body and checked on the server like every other field: a text within its length, a whole number
 * within its bounds, one of a dropdown's options, a ticked box where it is required, a real
 * calendar date. Answers to questions the link does not ask are refused, not dropped.
 */

export type AnswerRefusalReason =
  | 'unknown_question'
  | 'required'
  | 'not_text'
  | 'too_long'
  | 'not_a_whole_number'
  | 'below_min'
  | 'above_max'
  | 'unknown_option'
  | 'must_tick'
  | 'not_a_date';

export interface AnswerRefusal {
  question: string;
  reason: AnswerRefusalReason;
  /** The bound that was crossed (max length, min, max), for the message. */
  limit?: number;
}

const TICKED = new Set(['true', 'on', 'yes', '1']);
const UNTICKED = new Set(['false', 'off', 'no', '0', '']);
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && y <= 2200 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export function readAnswers(
  questions: readonly Question[],
  raw: Readonly<Record<string, unknown>>,
): { ok: true; answers: Record<string, Answer> } | { ok: false; refusals: AnswerRefusal[] } {
  const refusals: AnswerRefusal[] = [];
  const answers: Record<string, Answer> = {};
  for (const id of Object.keys(raw)) if (!questions.some((q) => q.id === id)) refusals.push({ question: id, reason: 'unknown_question' });
  for (const q of questions) {
    const read = readOne(q, raw[q.id]);
    if ('reason' in read) refusals.push({ question: q.id, ...read });
    else if (read.value !== undefined) answers[q.id] = read.value;
  }
  return refusals.length > 0 ? { ok: false, refusals } : { ok: true, answers };
}

function readOne(q: Question, value: unknown): { value: Answer | undefined } | Omit<AnswerRefusal, 'question'> {
  if (q.type === 'checkbox') {
    const text = typeof value === 'boolean' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase() : value === undefined ? '' : null;
    if (text === null || !(TICKED.has(text) || UNTICKED.has(text))) return { reason: 'must_tick' };
    const ticked = TICKED.has(text);
    if (q.required && !ticked) return { reason: 'must_tick' };
    return { value: ticked };
  }
  const text = typeof value === 'number' && q.type === 'number' ? String(value) : value;
  if (text === undefined || text === null || (typeof text === 'string' && text.trim() === ''))
    return q.required ? { reason: 'required' } : { value: undefined };
  if (typeof text !== 'string' || !isStorableText(text)) return { reason: 'not_text' };
  const trimmed = text.trim();
  switch (q.type) {
    case 'text': {
      const length = [...trimmed].length;
      return length > q.max_length ? { reason: 'too_long', limit: q.max_length } : { value: trimmed };
    }
    case 'number': {
      if (!/^-?\d{1,10}$/.test(trimmed)) return { reason: 'not_a_whole_number' };
      const n = Number(trimmed);
      if (q.min !== undefined && n < q.min) return { reason: 'below_min', limit: q.min };
      if (q.max !== undefined && n > q.max) return { reason: 'above_max', limit: q.max };
      return { value: n };
    }
    case 'dropdown':
      return q.options.some((o) => o.value === trimmed) ? { value: trimmed } : { reason: 'unknown_option' };
    case 'date':
      return isCalendarDate(trimmed) ? { value: trimmed } : { reason: 'not_a_date' };
  }
}
