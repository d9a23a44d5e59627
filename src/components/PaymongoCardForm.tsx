/**
 * PaymongoCardForm — the card island for a merchant on PayMongo (docs/acquirers.md). The card
 * number goes from this page straight to PayMongo, never to paylink:
 *   1. POST startUrl (same origin) with the customer's fields and amount, no card: paylink claims
 *      the attempt and creates the PaymentIntent; it answers with the intent's client key, the
 *      public key, PayMongo's API origin and the return address;
 *   2. POST {api}/v1/payment_methods with the public key (the card), then
 *      POST {api}/v1/payment_intents/{id}/attach with the client key and return address;
 *   3. 3-D Secure → the browser goes to PayMongo's page, which comes back to the return address;
 *      paid or processing → the return address (paylink syncs and shows the receipt);
 *      declined → paylink is told (the return address records it) and the reason is shown here.
 * The page allows PayMongo's API origin in its Content-Security-Policy connect-src.
 * Props and answers otherwise as CardForm (src/components/CardForm.tsx).
 */
import { Component } from 'preact';
import { type AmountRule, customerAmount } from '../schemas/amount-rules.ts';
import { cardErrors, formatCardNumber, formatExpiry, parseExpiry } from '../schemas/card-rules.ts';
import { type CustomerFieldPath, customerFieldError } from '../schemas/checkout-rules.ts';
import type { FormField } from '../schemas/form-field.ts';

export interface PaymongoCardFormProps {
  startUrl: string;
  buttonLabel: string;
  fields?: FormField[];
  amount?: { label: string; currency: string; hint?: string; rule: AmountRule };
  extraBody?: Record<string, unknown>;
}

type Errors = Record<string, string>;
interface State {
  values: Record<string, string>;
  errors: Errors;
  alert: string;
  busy: boolean;
  ready: boolean;
}

const idFor = (name: string) => `f-${name.replace(/[^\w-]/g, '-')}`;
const CARD = ['card.number', 'card.expiry', 'card.cvc', 'card.name'];

/** PayMongo's decline codes, in the words paylink uses everywhere. */
const declineText = (code: string | undefined) =>
  code === 'insufficient_funds'
    ? 'Your card has insufficient funds. Try another card.'
    : code === 'card_expired'
      ? 'Your card has expired. Check the expiry date or use another card.'
      : code === 'cvc_invalid' || code === 'cvc_incorrect'
        ? 'The security code is incorrect. Check the code on the back of your card.'
        : 'Your card was declined. Try another card or contact your bank.';

interface Started {
  provider_payment_id: string;
  client_key: string;
  public_key: string;
  api_base_url: string;
  return_url: string;
}

export default class PaymongoCardForm extends Component<PaymongoCardFormProps, State> {
  private inFlight = false;
  state: State = { values: {}, errors: {}, alert: '', busy: false, ready: false };

  componentDidMount() {
    this.setState({ ready: true });
  }

  private v = (name: string) => this.state.values[name] ?? '';
  private set = (name: string, value: string) => this.setState((old) => ({ values: { ...old.values, [name]: value }, errors: { ...old.errors, [name]: '' } }));

  private check(): Errors {
    const out: Errors = {};
    for (const f of this.props.fields ?? []) {
      const e = f.readOnly ? undefined : customerFieldError(f.name as CustomerFieldPath, this.v(f.name), f.required);
      if (e) out[f.name] = e;
    }
    if (this.props.amount) {
      const a = customerAmount(this.v('amount'), this.props.amount.rule);
      if ('message' in a) out.amount = a.message;
    }
    const card = cardErrors({ number: this.v('card.number'), expiry: this.v('card.expiry'), cvc: this.v('card.cvc'), name: this.v('card.name') });
    for (const [k, m] of Object.entries(card)) if (m) out[`card.${k}`] = m;
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
    if (Object.keys(errors).length > 0) {
      const first = [...(this.props.fields ?? []).map((f) => f.name), 'amount', ...CARD].find((k) => errors[k]);
      if (first) document.getElementById(idFor(first))?.focus();
      return;
    }
    this.inFlight = true;
    this.setState({ busy: true });
    const { fields = [], amount, extraBody, startUrl } = this.props;
    const body: Record<string, unknown> = { ...extraBody, fields: Object.fromEntries(fields.filter((f) => !f.readOnly).map((f) => [f.name, this.v(f.name)])) };
    if (amount) body.amount = this.v('amount').replace(/,/g, '').trim();
    try {
      const res = await fetch(startUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      const json = await res.json().catch(() => undefined);
      const data = json?.data as (Partial<Started> & { redirect_url?: string }) | undefined;
      if (typeof data?.redirect_url === 'string' && data.redirect_url.startsWith('/')) return location.assign(data.redirect_url);
      if (!data?.client_key || !data.api_base_url || !data.public_key || !data.provider_payment_id || !data.return_url) {
        const messages = (json?.messages ?? {}) as Record<string, string[]> | string;
        if (typeof messages === 'string') return this.fail(messages);
        const inline: Errors = {};
        const general: string[] = [];
        for (const [k, m] of Object.entries(messages)) k in this.state.values || k === 'amount' ? (inline[k] = String(m[0])) : general.push(...m.map(String));
        return this.fail(general.join(' ') || (Object.keys(inline).length ? '' : 'Something went wrong. Please try again.'), inline);
      }
      await this.payAtPaymongo(data as Started);
    } catch {
      this.fail('We could not reach the payment service. Check your connection and try again.');
    }
  };

  private async payAtPaymongo(s: Started) {
    const auth = `Basic ${btoa(`${s.public_key}:`)}`;
    const headers = { authorization: auth, 'content-type': 'application/json', accept: 'application/json' };
    const expiry = parseExpiry(this.v('card.expiry'))!;
    const method = await fetch(`${s.api_base_url}/v1/payment_methods`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        data: {
          attributes: {
            type: 'card',
            details: { card_number: this.v('card.number').replace(/\D/g, ''), exp_month: expiry.month, exp_year: expiry.year, cvc: this.v('card.cvc') },
            billing: { name: this.v('card.name') },
          },
        },
      }),
    }).then((r) => r.json());
    if (!method?.data?.id) return this.fail(method?.errors?.[0]?.detail ?? 'The card details are not valid. Check the card number and expiry date.');
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
      return this.fail(declineText(a.last_payment_error?.failed_code ?? a.last_payment_error?.sub_code));
    }
    // The page is leaving: nothing of the card stays in the form.
    this.setState((old) => ({ values: { ...old.values, 'card.number': '', 'card.cvc': '', 'card.expiry': '' } }));
    location.assign(a?.status === 'awaiting_next_action' && typeof redirect === 'string' ? redirect : s.return_url);
  }

  private input(name: string, label: string, attrs: Record<string, unknown>, hint?: string) {
    const id = idFor(name);
    const error = this.state.errors[name];
    return (
      <div class="field" key={name}>
        <label for={id}>{label}</label>
        {hint && (
          <p id={`${id}-hint`} class="hint">
            {hint}
          </p>
        )}
        <input
          id={id}
          name={name}
          value={this.v(name)}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
          onInput={(e) =>
            this.set(
              name,
              (attrs.format as ((v: string) => string) | undefined)?.((e.currentTarget as HTMLInputElement).value) ??
                (e.currentTarget as HTMLInputElement).value,
            )
          }
          {...{ ...attrs, format: undefined }}
        />
        {error && (
          <p id={`${id}-error`} class="field-error">
            {error}
          </p>
        )}
      </div>
    );
  }

  render() {
    const { fields = [], amount, buttonLabel, startUrl } = this.props;
    const { busy, ready, alert } = this.state;
    return (
      <form class="card-form" method="post" action={startUrl} noValidate onSubmit={this.submit} data-acquirer="paymongo">
        {fields.length > 0 && (
          <div class="fields">
            {fields.map((f) =>
              f.readOnly ? (
                <div class="field" key={f.name}>
                  <label for={idFor(f.name)}>{f.label}</label>
                  <input id={idFor(f.name)} name={f.name} value={f.value} readOnly class="readonly" />
                </div>
              ) : (
                this.input(
                  f.name,
                  f.label,
                  { type: f.type === 'select' ? 'text' : (f.type ?? 'text'), autocomplete: f.autocomplete, required: f.required },
                  f.hint,
                )
              ),
            )}
          </div>
        )}
        {amount && this.input('amount', amount.label, { type: 'text', inputMode: 'decimal', required: true }, amount.hint)}
        <fieldset class="card">
          <legend>Card details</legend>
          {this.input('card.number', 'Card number', {
            type: 'text',
            inputMode: 'numeric',
            autocomplete: 'cc-number',
            required: true,
            maxLength: 23,
            format: formatCardNumber,
          })}
          <div class="row">
            {this.input(
              'card.expiry',
              'Expiry date',
              { type: 'text', inputMode: 'numeric', autocomplete: 'cc-exp', required: true, maxLength: 9, format: formatExpiry },
              'MM/YY',
            )}
            {this.input('card.cvc', 'Security code', { type: 'text', inputMode: 'numeric', autocomplete: 'cc-csc', required: true, maxLength: 4 })}
          </div>
          {this.input('card.name', 'Name on card', { type: 'text', autocomplete: 'cc-name', required: true })}
        </fieldset>
        <p class="hint">Your card details go directly to our payment provider, PayMongo.</p>
        <div tabIndex={-1} class={alert ? 'alert' : 'alert empty'} role="alert">
          {alert}
        </div>
        <button type="submit" class="pay" disabled={!ready} aria-disabled={busy ? 'true' : undefined}>
          {busy ? 'Processing…' : buttonLabel}
        </button>
      </form>
    );
  }
}
