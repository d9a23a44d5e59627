/**
 * CardForm — the card entry island, shared by checkout and hosted card registration.
 *
 * Props:
 *   submitUrl    same-origin URL the form POSTs JSON to (e.g. /checkout/{token}/pay).
 *   buttonLabel  the submit button's text, e.g. "Pay ₱250.00" or "Save card". With `amount`, the
 *                typed amount is appended ("Pay ₱120.00") once it reads as a number.
 *   fields       extra fields shown before the card, in order (ExtraField below): inputs the
 *                customer fills (sent as `fields[name]`) and read-only values (shown, not sent).
 *   amount       ask for an amount: { label, currency, hint?, rule } (sent as `amount`, the text as typed,
 *                with `amount_locale`, the page's language whose separators read it); once it reads
 *                as an amount, "You will be charged ₱25.00" shows above the Pay button.
 *   extraBody    JSON merged into every request body (e.g. { session: "<page token>" }).
 *   text         the words shown, in the customer's language (src/i18n/island.ts builds them).
 *   cardLegend   legend of the card fieldset (default text.legend).
 *   busyLabel    button text while the request runs (default text.processing).
 *
 * Request body: { ...extraBody, amount?, fields: { [name]: value }, card: { number, expiry,
 * cvc, name } } as application/json. The server answers with the API envelope:
 *   data.redirect_url        → the browser goes there (receipt, return page, or the merchant's
 *                              http(s) return address after a saved card);
 *   messages[name]           → shown under that input (`card.number`, `card.expiry`, `card.cvc`,
 *                              `card.name`, `amount`, or an extra field's name);
 *   any other messages       → shown in the alert above the button, with the card number and
 *                              security code cleared so the customer can try another card (a
 *                              429 says in plain words how long to wait; see docs/security.md);
 *                              after a decline, `data.attempts_left` is said in words.
 * Inputs are checked in the browser with the same zod/mini schemas the server uses
 * (src/schemas/card.ts, src/schemas/checkout.ts), and the expiry date against the browser's
 * clock; the server checks everything again.
 */
import { Component, type ComponentChild, h } from 'preact';
import { type AmountRule, customerAmount, shownAmount } from '../schemas/amount-rules.ts';
import type { CardFormText } from '../schemas/card-form-text.ts';
import { cardErrors as cardRuleErrors, cvcLength, detectBrand, formatCardNumber, formatExpiry, makeCardRules } from '../schemas/card-rules.ts';
import { type CustomerFieldPath, customerFieldProblem, wordFieldProblem } from '../schemas/checkout-rules.ts';
import type { FormField } from '../schemas/form-field.ts';
import type { FieldErrors as Errors, CardFormState as State } from './card-form-state.ts';

export type ExtraField = FormField;

export interface CardFormProps {
  submitUrl: string;
  buttonLabel: string;
  fields?: ExtraField[];
  /** Ask for an amount, checked with the server's own rule. */
  amount?: { label: string; currency: string; hint?: string; rule: AmountRule };
  extraBody?: Record<string, unknown>;
  text: CardFormText;
  /** Formats the typed amount in the customer's locale (a BCP 47 tag). */
  locale?: string;
  cardLegend?: string;
  busyLabel?: string;
  /** Drawn on the server for the console's preview: the Pay button looks as customers see it (the preview's frame submits no form). */
  preview?: boolean;
}

const CARD_KEYS = ['card.number', 'card.expiry', 'card.cvc', 'card.name'];

const idFor = (name: string) => `f-${name.replace(/[^\w-]/g, '-')}`;

// Every extra field is a customer field (src/domain/links/form.ts), checked by the server's own rule.
function fieldError(field: ExtraField, value: string, text: CardFormText): string | undefined {
  const problem = customerFieldProblem(field.name as CustomerFieldPath, value, field.required);
  return problem && wordFieldProblem(problem, text.fieldErrors, field.requiredMessage ?? '');
}

// The typed amount is read with the page's separators ("25,00" on a Spanish page is 25.00), as the server reads it.
function readAmount(value: string, rule: AmountRule, text: CardFormText) {
  return customerAmount(value, rule, text.amountErrors);
}

/**
 * Where the browser may go after a success: a path of this site (the receipt, the registration's
 * page) or the http(s) return address the merchant gave (a saved card's `return_url`).
 */
function followable(redirect: unknown): string | undefined {
  if (typeof redirect !== 'string') return undefined;
  if (redirect.startsWith('/') && !redirect.startsWith('//')) return redirect;
  try {
    const url = new URL(redirect);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

// A class component: preact/hooks would cost another 1.2 KB gzip of the page's 12 KB budget. No JSX
// either, as in the other islands: it would bring Preact's JSX runtime onto the page, 190 B gzip.
export default class CardForm extends Component<CardFormProps, State> {
  private inFlight = false;
  private alertEl: HTMLDivElement | null = null;

  constructor(props: CardFormProps) {
    super(props);
    // What the customer typed into the server-rendered form before the island came alive is kept
    // (hydration would otherwise reset every input to the empty initial state).
    const values: Record<string, string> = {};
    if (typeof document !== 'undefined') {
      for (const name of this.names()) {
        const typed = (document.getElementById(idFor(name)) as HTMLInputElement | null)?.value;
        if (typed) values[name] = typed;
      }
    }
    this.state = { values, errors: {}, alert: '', busy: false, ready: false };
  }

  componentDidMount() {
    this.setState({ ready: true });
  }

  private value = (name: string) => this.state.values[name] ?? '';

  // Typing another card after a decline makes the decline's alert stale: editing a card field clears it.
  private set = (name: string, v: string) =>
    this.setState((old) => ({
      values: { ...old.values, [name]: v },
      errors: old.errors[name] ? { ...old.errors, [name]: '' } : old.errors,
      alert: name.startsWith('card.') && v !== (old.values[name] ?? '') ? '' : old.alert,
    }));

  private cardErrors(): Errors {
    const out: Errors = {};
    const v = this.value;
    const rules = makeCardRules(this.props.text.errors, new Date());
    const found = cardRuleErrors({ number: v('card.number'), expiry: v('card.expiry'), cvc: v('card.cvc'), name: v('card.name') }, rules);
    for (const [k, m] of Object.entries(found)) out[`card.${k}`] = m;
    return out;
  }

  private errorFor(name: string): string | undefined {
    if (name.startsWith('card.')) return this.cardErrors()[name];
    if (name === 'amount') {
      const read = this.props.amount && readAmount(this.value(name), this.props.amount.rule, this.props.text);
      return read && 'message' in read ? read.message : undefined;
    }
    const field = this.props.fields?.find((f) => f.name === name);
    return field && !field.readOnly ? fieldError(field, this.value(name), this.props.text) : undefined;
  }

  private names(): string[] {
    return [...(this.props.fields ?? []).map((f) => f.name), ...(this.props.amount ? ['amount'] : []), ...CARD_KEYS];
  }

  private blur = (name: string, event: FocusEvent) => {
    // Leaving a field for the submit button: submit checks everything, and an error appearing
    // now would move the button away from under the pointer.
    if ((event.relatedTarget as HTMLButtonElement | null)?.type === 'submit') return;
    if (this.value(name) !== '') this.setState((old) => ({ errors: { ...old.errors, [name]: this.errorFor(name) ?? '' } }));
  };

  private focusFirst(errs: Errors) {
    const first = this.names().find((k) => errs[k]);
    if (first) document.getElementById(idFor(first))?.focus();
  }

  private showAlert(text: string) {
    // Card number and security code are cleared after a failed attempt: nothing to leave behind.
    this.setState(
      (old) => ({ alert: text, values: { ...old.values, 'card.number': '', 'card.cvc': '' } }),
      () => this.alertEl?.focus(),
    );
  }

  private submit = async (event: Event) => {
    event.preventDefault();
    if (this.inFlight || !this.state.ready) return;
    const errs: Errors = {};
    for (const name of this.names()) {
      const e = this.errorFor(name);
      if (e) errs[name] = e;
    }
    this.setState({ errors: errs, alert: '' });
    if (Object.keys(errs).length > 0) return this.focusFirst(errs);
    const { fields = [], amount, extraBody, submitUrl } = this.props;
    const v = this.value;
    const body: Record<string, unknown> = {
      ...extraBody,
      fields: Object.fromEntries(fields.filter((f) => !f.readOnly).map((f) => [f.name, v(f.name)])),
      card: { number: v('card.number'), expiry: v('card.expiry'), cvc: v('card.cvc'), name: v('card.name') },
    };
    // The text as typed with the page's language: the server reads it with the same separators.
    if (amount) Object.assign(body, { amount: v('amount').trim(), amount_locale: amount.rule.locale });
    // What the page sells (SaleFields: quantities, tip, code, answers), as its form would post it.
    const sale = document.getElementById('sale') as HTMLFormElement | null;
    if (sale) body.sale = String(new URLSearchParams(new FormData(sale) as never));
    this.inFlight = true;
    this.setState({ busy: true });
    try {
      const response = await fetch(submitUrl, {
        method: 'POST',
        // The page's language, so a refusal comes back in it (src/api/page-locale.ts).
        headers: { 'content-type': 'application/json', accept: 'application/json', 'accept-language': this.props.locale ?? '' },
        body: JSON.stringify(body),
      });
      const json = await response.json().catch(() => undefined);
      const redirect = followable(json?.data?.redirect_url);
      if (redirect) {
        this.setState((old) => ({ values: { ...old.values, 'card.number': '', 'card.cvc': '', 'card.expiry': '' } }));
        location.assign(redirect);
        return; // stays busy: the page is leaving
      }
      const messages = json?.messages;
      const inline: Errors = {};
      const general: string[] = [];
      const known = new Set(this.names());
      if (messages && typeof messages === 'object') {
        for (const [k, m] of Object.entries(messages as Record<string, string[]>)) {
          if (known.has(k)) inline[k] = String(m[0]);
          else general.push(...m.map(String));
        }
      } else if (typeof messages === 'string') general.push(messages);
      // paylink words every refusal, a 429 included (how long to wait): see docs/security.md.
      const { text } = this.props;
      if (Object.keys(inline).length === 0 && general.length === 0) general.push(json?.data?.status_description ?? text.genericError);
      // A decline is said in the page's language (the server words it in English), with the attempts left.
      const code = json?.data?.decline_code;
      const said = Object.hasOwn(text.declines, code) ? text.declines[code] : '';
      if (said) general.splice(0, general.length, said);
      const left = json?.data?.attempts_left;
      if (typeof left === 'number') {
        if (left > 0) general.push((left === 1 ? text.attemptsOne : text.attemptsOther).replace('{count}', String(left)));
        else if (said) general.push(text.locked);
      }
      this.setState({ errors: inline });
      if (general.length > 0) this.showAlert(general.join(' '));
      else this.focusFirst(inline);
    } catch {
      this.showAlert(this.props.text.networkError);
    }
    this.inFlight = false;
    this.setState({ busy: false });
  };

  private errorText(name: string) {
    const e = this.state.errors[name];
    return e ? h('p', { id: `${idFor(name)}-error`, class: 'field-error' }, e) : null;
  }

  private described(name: string, extra?: string) {
    return [extra, this.state.errors[name] ? `${idFor(name)}-error` : ''].filter(Boolean).join(' ') || undefined;
  }

  private input(name: string, label: string, attrs: Record<string, unknown>, hint?: string, after?: ComponentChild) {
    const id = idFor(name);
    return h(
      'div',
      { class: 'field', key: name },
      h('label', { for: id }, label),
      hint && h('p', { id: `${id}-hint`, class: 'hint' }, hint),
      h(
        'div',
        { class: after ? 'with-icon' : undefined },
        h('input', {
          id,
          name,
          value: this.value(name),
          'aria-invalid': this.state.errors[name] ? 'true' : undefined,
          'aria-describedby': this.described(name, hint ? `${id}-hint` : undefined),
          onInput: (e: Event) => this.set(name, (e.currentTarget as HTMLInputElement).value),
          onBlur: (e: FocusEvent) => this.blur(name, e),
          ...attrs,
        }),
        after,
      ),
      this.errorText(name),
    );
  }

  private extra = (f: ExtraField) => {
    const id = idFor(f.name);
    const label = h('label', { for: id }, f.label);
    if (f.readOnly) {
      const type = f.type === 'select' ? 'text' : (f.type ?? 'text');
      return h('div', { class: 'field', key: f.name }, label, h('input', { id, name: f.name, value: f.value, readOnly: true, class: 'readonly', type }));
    }
    if (f.type === 'select') {
      return h(
        'div',
        { class: 'field', key: f.name },
        label,
        h(
          'select',
          {
            id,
            name: f.name,
            autocomplete: f.autocomplete,
            required: f.required,
            'aria-invalid': this.state.errors[f.name] ? 'true' : undefined,
            'aria-describedby': this.described(f.name),
            value: this.value(f.name),
            onChange: (e: Event) => this.set(f.name, (e.currentTarget as HTMLSelectElement).value),
          },
          h('option', { value: '' }, this.props.text.choose),
          f.options?.map(([code, name]) => h('option', { value: code }, name)),
        ),
        this.errorText(f.name),
      );
    }
    return this.input(f.name, f.label, { type: f.type ?? 'text', autocomplete: f.autocomplete, inputMode: f.inputmode, required: f.required }, f.hint);
  };

  render() {
    const { fields = [], amount, buttonLabel, submitUrl, text } = this.props;
    const { busy, ready, alert } = this.state;
    const brand = detectBrand(this.value('card.number'));
    const numberId = idFor('card.number');
    const read = amount && readAmount(this.value('amount'), amount.rule, text);
    const charged = amount && read && 'minor' in read ? shownAmount(read.minor, amount.rule) : undefined;
    const label = busy ? (this.props.busyLabel ?? text.processing) : charged ? `${buttonLabel} ${charged}` : buttonLabel;
    const onInput = (name: string, format: (v: string) => string) => (e: Event) => this.set(name, format((e.currentTarget as HTMLInputElement).value));
    const brandMark = h(
      'span',
      { id: `${numberId}-brand`, class: 'brand', 'aria-live': 'polite' },
      // The icon is drawn from the page's sprite (BrandSprite.astro): no artwork in the island.
      brand && h('svg', { class: 'brand-icon', width: '32', height: '20', 'aria-hidden': 'true' }, h('use', { href: `#brand-${brand}` })),
      h('span', { class: 'visually-hidden' }, brand ? text.brands[brand] : ''),
    );
    return h(
      'form',
      { class: 'card-form', method: 'post', action: submitUrl, noValidate: true, onSubmit: this.submit },
      fields.length > 0 && h('div', { class: 'fields' }, fields.map(this.extra)),
      amount && this.input('amount', amount.label, { type: 'text', inputMode: 'decimal', autocomplete: 'transaction-amount', required: true }, amount.hint),
      h(
        'fieldset',
        { class: 'card' },
        h('legend', null, this.props.cardLegend ?? text.legend),
        this.input(
          'card.number',
          text.number,
          {
            type: 'text',
            inputMode: 'numeric',
            autocomplete: 'cc-number',
            spellcheck: false,
            required: true,
            maxLength: 23,
            placeholder: '1234 1234 1234 1234',
            onInput: onInput('card.number', formatCardNumber),
            'aria-describedby': this.described('card.number', `${numberId}-brand`),
          },
          undefined,
          brandMark,
        ),
        h(
          'div',
          { class: 'row' },
          this.input(
            'card.expiry',
            text.expiry,
            {
              type: 'text',
              inputMode: 'numeric',
              autocomplete: 'cc-exp',
              required: true,
              placeholder: text.expiryPlaceholder,
              maxLength: 9,
              onInput: onInput('card.expiry', formatExpiry),
            },
            text.expiryHint,
          ),
          this.input('card.cvc', text.cvc, {
            type: 'text',
            inputMode: 'numeric',
            autocomplete: 'cc-csc',
            required: true,
            maxLength: 4,
            placeholder: text.cvcPlaceholder.replace('{digits}', String(cvcLength(brand))),
            onInput: onInput('card.cvc', (v) => v.replace(/\D/g, '').slice(0, cvcLength(brand))),
          }),
        ),
        this.input('card.name', text.name, { type: 'text', autocomplete: 'cc-name', required: true, spellcheck: false }),
      ),
      h(
        'div',
        {
          ref: (el: HTMLDivElement | null) => {
            this.alertEl = el;
          },
          tabIndex: -1,
          class: alert ? 'alert' : 'alert empty',
          role: 'alert',
        },
        alert,
      ),
      amount &&
        h(
          'p',
          { class: 'charge-preview', 'data-testid': 'charge-preview', 'aria-live': 'polite' },
          charged ? text.willCharge.replace('{amount}', charged) : '',
        ),
      h('button', { type: 'submit', class: 'pay', disabled: !ready && !this.props.preview, 'aria-disabled': busy ? 'true' : undefined }, label),
    );
  }
}
