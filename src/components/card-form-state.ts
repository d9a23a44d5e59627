/**
 * What each card island (CardForm, PaymongoCardForm, StripeCardForm) keeps in its state. Types
 * only: sharing them costs the pages no JavaScript (a shared runtime module would be split into a
 * chunk of its own, which the checkout page's 12 KB budget has no room for; each island keeps its
 * own one-line helpers for that reason).
 */
export type FieldErrors = Record<string, string>;

export interface CardFormState {
  values: Record<string, string>;
  errors: FieldErrors;
  alert: string;
  busy: boolean;
  ready: boolean;
}
