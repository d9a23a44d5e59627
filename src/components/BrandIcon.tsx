/**
 * Card brand marks drawn for paylink: a coloured card with the brand's name or shape, simple
 * enough to recognise at 32×20 and to cost a few hundred bytes in the island. They are our own
 * drawings (no brand artwork copied); the brand's name is the accessible text beside them.
 */
import type { CardBrand } from '../schemas/card-rules.ts';

// [background, text colour, word] — Mastercard is drawn as its two overlapping circles instead.
const marks: Record<CardBrand, [string, string, string]> = {
  visa: ['#1a1f71', '#fff', 'VISA'],
  mastercard: ['#252525', '', ''],
  amex: ['#1f72cd', '#fff', 'AMEX'],
  discover: ['#fff', '#231f20', 'DISC'],
  jcb: ['#0b4ea2', '#fff', 'JCB'],
  diners: ['#004a97', '#fff', 'DC'],
  unionpay: ['#d10429', '#fff', 'UP'],
};

export default function BrandIcon({ brand }: { brand: CardBrand }) {
  const [bg, fg, word] = marks[brand];
  return (
    <svg class="brand-icon" viewBox="0 0 32 20" width="32" height="20" aria-hidden="true" focusable="false">
      <rect x=".5" y=".5" width="31" height="19" rx="3" fill={bg} stroke="#0003" />
      {word ? (
        <text
          x="16"
          y="14"
          fill={fg}
          font-size={word.length > 3 ? 8 : 9}
          font-weight="700"
          font-family="Arial,sans-serif"
          text-anchor="middle"
          font-style={brand === 'visa' ? 'italic' : undefined}
        >
          {word}
        </text>
      ) : (
        <>
          <circle cx="12.5" cy="10" r="6" fill="#eb001b" />
          <circle cx="19.5" cy="10" r="6" fill="#f79e1b" fill-opacity=".9" />
        </>
      )}
      {brand === 'discover' && <circle cx="27" cy="16" r="2" fill="#f48120" />}
    </svg>
  );
}
