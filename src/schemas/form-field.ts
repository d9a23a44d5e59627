/** A form field as the card island renders it: shared by the island and the pages that build its props. */
export interface FormField {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'select';
  autocomplete?: string;
  inputmode?: 'text' | 'email' | 'tel' | 'decimal' | 'numeric';
  required?: boolean;
  /** Read-only value (system-filled): shown, sent back unchanged, not editable. */
  value?: string;
  readOnly?: boolean;
  options?: [string, string][];
  hint?: string;
  /** What the island says when a required field is left empty, in the page's language. */
  requiredMessage?: string;
}
