/**
 * PaymongoCardForm — the card island for a merchant on PayMongo (docs/acquirers.md). The card
 * number goes from this page straight to PayMongo, never to paylink:
 *   1. POST startUrl (same origin) with the customer's fields and amount, no card: paylink checks
 *      them (its messages come back per field), claims the attempt and creates the PaymentIntent;
 *      it answers with the intent's client key, the public key, PayMongo's API origin and the
 *      return address;
 *   2. POST {api}/v1/payment_methods with the public key (the card), then
 *      POST {api}/v1/payment_intents/{id}/attach with the client key and return address;
 *   3. 3-D Secure → the browser goes to PayMongo's page, which comes back to the return address;
 *      paid or processing → the return address (paylink syncs and shows the receipt);
 *      declined → paylink is told (the return address records it) and the reason is shown here.
 * The page allows PayMongo's API origin in its Content-Security-Policy connect-src.
 *
 * Nothing here can post a card to paylink, whatever happens to the script: the island is no
 * `<form>` (a native submit, with the script failed, blocked or not yet loaded and the button
 * enabled by an extension, would send every named input to paylink), its button submits nothing
 * by itself (`type=button`; Enter in a field runs the same handler), and the card inputs carry no
 * `name`, so no form anywhere would serialise them.
 *
 * Written with `h` and without the card-rule modules CardForm uses: sharing them would split them
 * into a chunk of their own and cost the sandbox checkout page's 12 KB budget. PayMongo checks
 * the card itself; this form checks only what a customer can see at a glance.
 */
import { Component, h } from 'preact';
import { type AmountRule, customerAmount, shownAmount } from '../schemas/amount-rules.ts';
import type { CardFormText } from '../schemas/card-form-text.ts';
import type { FieldErrors as Errors, CardFormState as State } from './card-form-state.ts';

export interface PaymongoCardFormProps {
  startUrl: string;
  buttonLabel: string;
  fields?: Array<{
    name: string;
    label: string;
    type?: string;
    autocomplete?: string;
    required?: boolean;
    readOnly?: boolean;
    value?: string;
    hint?: string;
    /** What to say when a required field is empty, in the page's language. */
    requiredMessage?: string;
  }>;
  /** Ask for an amount, read with the server's own rule (the page locale's separators in it). */
  amount?: { label: string; hint?: string; rule: AmountRule };
  extraBody?: Record<string, unknown>;
  /** PayMongo's hosted checkout: no card fields here; the customer pays on PayMongo's page. */
  hosted?: boolean;
  /** The words it shows, in the customer's language (src/i18n/island.ts, as CardForm's). */
  text: CardFormText & { hostedHint: string };
  /** The page's language (a BCP 47 tag), sent with the submission so a refusal comes back in it. */
  locale?: string;
}

const idFor = (name: string) => `f-${name.replace(/[^\w-]/g, '-')}`;
const digits = (v: string) => v.replace(/\D/g, '');
const EXPIRY = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/;

/** PayMongo's decline codes, as paylink's decline codes (their words come in the `text` prop). */
const declines: Record<string, string> = {
  insufficient_funds: 'insufficient_funds',
  card_expired: 'expired_card',
  cvc_invalid: 'incorrect_cvc',
};

interface Started {
  provider_payment_id: string;
  client_key: string;
  public_key: string;
  api_base_url: string;
  return_url: string;
}

/** The names of the inputs the form shows: the customer's fields, the amount of an open-amount link, the card's. */
const inputNames = (props: PaymongoCardFormProps) => [
  ...(props.fields ?? []).map((f) => f.name),
  ...(props.amount ? ['amount'] : []),
  'card.number',
  'card.expiry',
  'card.cvc',
  'card.name',
];

export default class PaymongoCardForm extends Component<PaymongoCardFormProps, State> {
  private inFlight = false;

  constructor(props: PaymongoCardFormProps) {
    super(props);
    // What the customer typed into the server-rendered form before the island came alive is kept
    // (hydration would otherwise reset every input to the empty initial state), as in CardForm.
    const values: Record<string, string> = {};
    if (typeof document !== 'undefined') {
      for (const name of inputNames(props)) {
        const typed = (document.getElementById(idFor(name)) as HTMLInputElement | null)?.value;
        if (typed) values[name] = typed;
      }
    }
    this.state = { values, errors: {}, alert: '', busy: false, ready: false };
  }

  componentDidMount() {
    this.setState({ ready: true });
  }

  private v = (name: string) => this.state.values[name] ?? '';

  /** The typed amount as the server will read it: the page's separators, the link's bounds. */
  private amount() {
    const { amount, text } = this.props;
    return amount ? customerAmount(this.v('amount'), amount.rule, text.amountErrors) : undefined;
  }

  private check(): Errors {
    const { errors: e } = this.props.text;
    const out: Errors = {};
    for (const f of this.props.fields ?? [])
      if (!f.readOnly && f.required && !this.v(f.name).trim()) out[f.name] = f.requiredMessage ?? `Enter your ${f.label.toLowerCase()}`;
    const read = this.amount();
    if (read && 'message' in read) out.amount = read.message;
    else if (this.props.amount && !this.v('amount').trim()) out.amount = this.props.text.amountErrors.missing;
    if (this.props.hosted) return out;
    if (!/^\d{12,19}$/.test(digits(this.v('card.number')))) out['card.number'] = e.number_missing;
    if (!EXPIRY.test(this.v('card.expiry').trim())) out['card.expiry'] = e.expiry_format;
    if (!/^\d{3,4}$/.test(this.v('card.cvc'))) out['card.cvc'] = e.cvc_missing;
    if (!this.v('card.name').trim()) out['card.name'] = e.name_missing;
    return out;
  }

  private fail(alert: string, errors: Errors = {}) {
    this.inFlight = false;
    this.setState((old) => ({ alert, errors, busy: false, values: { ...old.values, 'card.number': '', 'card.cvc': '' } }));
  }

  private submit = async (event: Event) => {
    event.preventDefault();
    if (this.inFlight || !this.state.ready) return;
    const errors = this.check();
    this.setState({ errors, alert: '' });
    const first = Object.keys(errors)[0];
    if (first) return document.getElementById(idFor(first))?.focus();
    this.inFlight = true;
    this.setState({ busy: true });
    const { fields = [], amount, extraBody, startUrl } = this.props;
    const body: Record<string, unknown> = { ...extraBody, fields: Object.fromEntries(fields.filter((f) => !f.readOnly).map((f) => [f.name, this.v(f.name)])) };
    // What the page sells (SaleFields), as its form would post it.
    const sale = document.getElementById('sale') as HTMLFormElement | null;
    if (sale) body.sale = String(new URLSearchParams(new FormData(sale) as never));
    // The text as typed with the page's language: the server reads it with the same separators.
    if (amount) Object.assign(body, { amount: this.v('amount').trim(), amount_locale: amount.rule.locale });
    try {
      const res = await fetch(startUrl, {
        method: 'POST',
        // The page's language, so a refusal comes back in it (src/api/page-locale.ts).
        headers: { 'content-type': 'application/json', accept: 'application/json', 'accept-language': this.props.locale ?? '' },
        body: JSON.stringify(body),
      });
      const json = await res.json().catch(() => undefined);
      const data = json?.data as (Partial<Started> & { redirect_url?: string; next_action_url?: string }) | undefined;
      if (typeof data?.redirect_url === 'string' && data.redirect_url.startsWith('/')) return location.assign(data.redirect_url);
      // PayMongo's own page: the hosted checkout, or an attempt left during 3-D Secure (paylink's own answer).
      if (typeof data?.next_action_url === 'string' && /^https?:\/\//.test(data.next_action_url)) return location.assign(data.next_action_url);
      if (!data?.client_key) {
        // Field messages under their field when the form shows it (the amount of a fixed-amount link
        // has no input); the rest (or the status) in the alert.
        const messages: Record<string, string[]> = typeof json?.messages === 'object' ? json.messages : {};
        const shown = new Set(inputNames(this.props));
        const inline: Errors = {};
        for (const [k, m] of Object.entries(messages)) if (shown.has(k)) inline[k] = String(m[0]);
        const general = Object.entries(messages)
          .filter(([k]) => !inline[k])
          .flatMap(([, m]) => m);
        return this.fail(
          general.join(' ') || (typeof json?.messages === 'string' ? json.messages : Object.keys(inline).length ? '' : this.props.text.genericError),
          inline,
        );
      }
      await this.payAtPaymongo(data as Started);
    } catch {
      this.fail(this.props.text.networkError);
    }
  };

  private async payAtPaymongo(s: Started) {
    const headers = { authorization: `Basic ${btoa(`${s.public_key}:`)}`, 'content-type': 'application/json', accept: 'application/json' };
    const [, month, year] = EXPIRY.exec(this.v('card.expiry').trim())!;
    const method = await fetch(`${s.api_base_url}/v1/payment_methods`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        data: {
          attributes: {
            type: 'card',
            details: {
              card_number: digits(this.v('card.number')),
              exp_month: Number(month),
              exp_year: Number(year!.length === 2 ? `20${year}` : year),
              cvc: this.v('card.cvc'),
            },
            billing: { name: this.v('card.name') },
          },
        },
      }),
    }).then((r) => r.json());
    if (!method?.data?.id) return this.fail(this.props.text.declines.invalid_card!);
    const attached = await fetch(`${s.api_base_url}/v1/payment_intents/${encodeURIComponent(s.provider_payment_id)}/attach`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data: { attributes: { payment_method: method.data.id, client_key: s.client_key, return_url: s.return_url } } }),
    }).then((r) => r.json());
    const a = attached?.data?.attributes;
    const redirect = a?.next_action?.redirect?.url;
    if (a?.status === 'awaiting_payment_method') {
      // paylink records the decline when asked where the payment stands; the customer may try again.
      await fetch(s.return_url, { redirect: 'manual' }).catch(() => undefined);
      const { declines: said } = this.props.text;
      return this.fail(said[declines[a.last_payment_error?.failed_code] ?? 'card_declined'] ?? said.card_declined!);
    }
    // The page is leaving: nothing of the card stays in the form.
    this.setState({ values: {} });
    location.assign(a?.status === 'awaiting_next_action' && typeof redirect === 'string' ? redirect : s.return_url);
  }

  private input(name: string, label: string, attrs: Record<string, unknown>, hint?: string, format?: (v: string) => string) {
    const id = idFor(name);
    const error = this.state.errors[name];
    return h(
      'div',
      { class: 'field', key: name },
      h('label', { for: id }, label),
      hint && h('p', { id: `${id}-hint`, class: 'hint' }, hint),
      h('input', {
        id,
        // A card input has no name: no form submission could ever carry it.
        name: name.startsWith('card.') ? undefined : name,
        value: this.v(name),
        'aria-invalid': error ? 'true' : undefined,
        'aria-describedby': [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined,
        onInput: (e: Event) => {
          const raw = (e.currentTarget as HTMLInputElement).value;
          // Typing another card after a decline makes the decline's alert stale: editing clears it.
          this.setState((old) => ({ values: { ...old.values, [name]: format ? format(raw) : raw }, errors: { ...old.errors, [name]: '' }, alert: '' }));
        },
        ...attrs,
      }),
      error && h('p', { id: `${id}-error`, class: 'field-error' }, error),
    );
  }

  render() {
    const { fields = [], amount, buttonLabel, text } = this.props;
    const { busy, ready, alert } = this.state;
    const numeric = { type: 'text', inputMode: 'numeric', required: true };
    const read = this.amount();
    const charged = amount && read && 'minor' in read ? shownAmount(read.minor, amount.rule) : undefined;
    return h(
      'div',
      {
        class: 'card-form',
        'data-acquirer': 'paymongo',
        // Enter in a field pays, as in a form, through the same handler (never a native submit).
        onKeyDown: (e: KeyboardEvent) => {
          if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') void this.submit(e);
        },
      },
      fields.length > 0 &&
        h(
          'div',
          { class: 'fields' },
          fields.map((f) =>
            this.input(
              f.name,
              f.label,
              f.readOnly
                ? { readOnly: true, value: f.value, class: 'readonly' }
                : { type: f.type === 'select' ? 'text' : (f.type ?? 'text'), autocomplete: f.autocomplete, required: f.required },
              f.hint,
            ),
          ),
        ),
      amount && this.input('amount', amount.label, { type: 'text', inputMode: 'decimal', required: true }, amount.hint),
      this.props.hosted
        ? h('p', { class: 'hint' }, text.hostedHint)
        : h(
            'fieldset',
            { class: 'card' },
            h('legend', null, text.legend),
            this.input('card.number', text.number, { ...numeric, autocomplete: 'cc-number', maxLength: 23 }, undefined, (v) =>
              digits(v)
                .slice(0, 19)
                .replace(/(\d{4})(?=\d)/g, '$1 '),
            ),
            h(
              'div',
              { class: 'row' },
              this.input('card.expiry', text.expiry, { ...numeric, autocomplete: 'cc-exp', maxLength: 9 }, text.expiryHint, (v) => {
                const d = digits(v).slice(0, 4);
                return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
              }),
              this.input('card.cvc', text.cvc, { ...numeric, autocomplete: 'cc-csc', maxLength: 4 }, undefined, (v) => digits(v).slice(0, 4)),
            ),
            this.input('card.name', text.name, { type: 'text', autocomplete: 'cc-name', required: true }),
          ),
      h('div', { tabIndex: -1, class: alert ? 'alert' : 'alert empty', role: 'alert' }, alert),
      amount &&
        h(
          'p',
          { class: 'charge-preview', 'data-testid': 'charge-preview', 'aria-live': 'polite' },
          charged ? text.willCharge.replace('{amount}', charged) : '',
        ),
      h(
        'button',
        { type: 'button', class: 'pay', disabled: !ready, 'aria-disabled': busy ? 'true' : undefined, onClick: this.submit },
        busy ? text.processing : charged ? `${buttonLabel} ${charged}` : buttonLabel,
      ),
    );
  }
}
