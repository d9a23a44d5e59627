declare module 'html-escaper' {
  /** Escapes & < > ' " for HTML text and attribute values. */
  export function escape(value: string): string;
  export function unescape(value: string): string;
}
