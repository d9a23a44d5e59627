// biome-ignore-all lint/suspicious/noShadowRestrictedNames: the package's own export names
declare module 'html-escaper' {
  /** Escapes & < > ' " for HTML text and attribute values. */
  export function escape(value: string): string;
  export function unescape(value: string): string;
}
