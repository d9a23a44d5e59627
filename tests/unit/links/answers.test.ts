import { describe, expect, it } from 'vitest';
import { isCalendarDate, readAnswers } from '../../../src/domain/links/answers.ts';
import { type Question, questionsSchema } from '../../../src/schemas/link-sale.ts';

const questions: Question[] = questionsSchema.parse([
  { id: 'student_number', type: 'text', label: { en: 'Student number', fil: 'Numero ng estudyante' }, required: true, max_length: 10 },
  { id: 'passes', type: 'number', label: { en: 'Passes' }, min: 1, max: 20 },
  {
    id: 'class',
    type: 'dropdown',
    label: { en: 'Which class?' },
    required: true,
    options: [
      { value: 'vinyasa', label: { en: 'Vinyasa' } },
      { value: 'yin', label: { en: 'Yin' } },
    ],
  },
  { id: 'terms', type: 'checkbox', label: { en: 'I accept the terms' }, required: true, terms_url: 'https://studio.example/terms' },
  { id: 'start', type: 'date', label: { en: 'Start date' } },
]);

describe('custom questions › reading answers', () => {
  it('reads each type from form text: trimmed text, whole numbers, an option, a ticked box, a date', () => {
    expect(readAnswers(questions, { student_number: ' 2024-0012 ', passes: '3', class: 'yin', terms: 'on', start: '2026-12-01' })).toEqual({
      ok: true,
      answers: { student_number: '2024-0012', passes: 3, class: 'yin', terms: true, start: '2026-12-01' },
    });
    expect(readAnswers(questions, { student_number: 'A1', class: 'vinyasa', terms: true, passes: 2 })).toEqual({
      ok: true,
      answers: { student_number: 'A1', class: 'vinyasa', terms: true, passes: 2 },
    });
  });

  it('refuses every wrong answer at once, naming the question and the bound', () => {
    const result = readAnswers(questions, { student_number: 'x'.repeat(11), passes: '21', class: 'pilates', terms: 'false', start: '2026-02-30', extra: '1' });
    expect(result).toEqual({
      ok: false,
      refusals: [
        { question: 'extra', reason: 'unknown_question' },
        { question: 'student_number', reason: 'too_long', limit: 10 },
        { question: 'passes', reason: 'above_max', limit: 20 },
        { question: 'class', reason: 'unknown_option' },
        { question: 'terms', reason: 'must_tick' },
        { question: 'start', reason: 'not_a_date' },
      ],
    });
  });

  it('asks for required answers and leaves optional ones out when blank', () => {
    expect(readAnswers(questions, { passes: '', start: ' ' })).toEqual({
      ok: false,
      refusals: [
        { question: 'student_number', reason: 'required' },
        { question: 'class', reason: 'required' },
        { question: 'terms', reason: 'must_tick' },
      ],
    });
    expect(readAnswers(questions, { student_number: 'A', class: 'yin', terms: 'true', passes: ' ' })).toEqual({
      ok: true,
      answers: { student_number: 'A', class: 'yin', terms: true },
    });
  });

  it('refuses numbers that are not whole, text that cannot be stored and objects where text belongs', () => {
    const base = { student_number: 'A', class: 'yin', terms: 'on' };
    expect(readAnswers(questions, { ...base, passes: '2.5' })).toMatchObject({ refusals: [{ question: 'passes', reason: 'not_a_whole_number' }] });
    expect(readAnswers(questions, { ...base, passes: '0' })).toMatchObject({ refusals: [{ question: 'passes', reason: 'below_min', limit: 1 }] });
    expect(readAnswers(questions, { ...base, student_number: 'a\u0000b' })).toMatchObject({ refusals: [{ question: 'student_number', reason: 'not_text' }] });
    expect(readAnswers(questions, { ...base, student_number: { $ne: 1 } })).toMatchObject({ refusals: [{ question: 'student_number', reason: 'not_text' }] });
    expect(readAnswers(questions, { ...base, terms: 'maybe' })).toMatchObject({ refusals: [{ question: 'terms', reason: 'must_tick' }] });
  });

  it('counts a text answer’s length in characters, not UTF-16 units', () => {
    expect(readAnswers(questions, { student_number: '😀'.repeat(10), class: 'yin', terms: 'on' })).toMatchObject({ ok: true });
  });

  it('knows real calendar dates', () => {
    expect(['2024-02-29', '2026-12-31'].every(isCalendarDate)).toBe(true);
    expect(['2025-02-29', '2026-13-01', '26-12-01', '2026-1-1', '1800-01-01'].some(isCalendarDate)).toBe(false);
  });
});

describe('custom questions › configuration', () => {
  it('takes at most five questions with unique ids and checks each type’s settings', () => {
    const q = (id: string) => ({ id, type: 'text', label: { en: id } });
    expect(questionsSchema.safeParse(['a', 'b', 'c', 'd', 'e', 'f'].map(q)).success).toBe(false);
    expect(questionsSchema.safeParse([q('a'), q('a')]).success).toBe(false);
    expect(questionsSchema.safeParse([{ id: 'n', type: 'number', label: { en: 'N' }, min: 5, max: 1 }]).success).toBe(false);
    expect(questionsSchema.safeParse([{ id: 'd', type: 'dropdown', label: { en: 'D' }, options: [] }]).success).toBe(false);
    expect(questionsSchema.safeParse([{ id: 't', type: 'checkbox', label: { en: 'T' }, terms_url: 'http://insecure.example' }]).success).toBe(false);
    expect(questionsSchema.safeParse([{ id: 'Bad id', type: 'text', label: { en: 'x' } }]).success).toBe(false);
    expect(questionsSchema.safeParse([{ id: 'x', type: 'text', label: { fil: 'Walang Ingles' } }]).success).toBe(false);
  });
});
