/**
 * StripeCardForm — the card island for a merchant on Stripe (docs/stripe.md). The card is typed
 * into Stripe's Payment Element, an iframe served by Stripe: the number never touches paylink's
 * page, JavaScript or server (PCI SAQ A). The flow is Stripe's "intent created on submit" one:
 *   1. on load, Stripe.js comes from js.stripe.com and the Element is mounted in payment mode with
 *      the amount and currency (no PaymentIntent yet: opening the page charges nothing);
 *   2. on submit, the customer's own fields are checked here, the Element checks the card
 *      (elements.submit()), then POST startUrl (same origin) with the fields and amount, no card:
 *      paylink claims the attempt and creates the PaymentIntent; it answers with the intent's
 *      client key (client_secret), the publishable key and the return address;
 *   3. stripe.confirmPayment with that client_secret and return_url: 3-D Secure runs in Stripe's
 *      frame or redirects, and Stripe comes back to the return address, where paylink syncs the
 *      intent and shows the receipt; a decline comes back here and is shown above the button
 *      (the return address is asked once so paylink records it).
 * Props (checked on the server by stripeCardFormProps, src/acquirer/stripe/element.ts): as
 * PaymongoCardForm / CardForm, plus the publishable key, the currency and the fixed amount in minor
 * units (an open amount is read from the amount input). The page allows Stripe's hosts in its
 * CSP (allowStripeElement) on this merchant's pages only.
 */
// No JSX and no import from the card and field rule modules: a module this island shared with
// CardForm would move out of CardForm's bundle into a chunk of its own, one more script on the
// sandbox checkout page's 12 KB budget. The amount rule is the one module shared on purpose (its own
// 688 B chunk, which every card island loads). The server checks the customer's fields and amount on
// start and its messages are shown inline; here only what must hold before the card goes to Stripe
// is checked.
import { Component, h } from 'preact';
import { englishAmountMessages } from '../schemas/amount-messages.ts';
import { type AmountRule, customerAmount } from '../schemas/amount-rules.ts';
import type { FormField } from '../schemas/form-field.ts';
import type { FieldErrors as Errors, CardFormState as State } from './card-form-state.ts';

const stripeJsUrl = 'https://js.stripe.com/v3/';

export interface StripeCardFormProps {
  /** The integrator's publishable key (pk_…). */
  publishableKey: string;
  /** Same-origin URL that claims the attempt and creates the PaymentIntent (e.g. /checkout/{token}/provider). */
  startUrl: string;
  /** Lower-case ISO 4217 code, as Stripe.js takes it. */
  currency: string;
  /** The amount due in minor units; absent on an open-amount link (the amount input gives it). */
  amountMinor?: number;
  buttonLabel: string;
  fields?: FormField[];
  amount?: { label: string; currency: string; hint?: string; rule: AmountRule };
  extraBody?: Record<string, unknown>;
  /** The payment keeps the card for a schedule: the Element says so, as the PaymentIntent (setup_future_usage) will. */
  saveCard?: boolean;
  /**
   * A free trial: nothing is paid. The Element opens in setup mode; on submit paylink creates a
   * SetupIntent (the start answers `mode: 'setup'`) and the button confirms it (stripe.confirmSetup).
   */
  trial?: boolean;
  /**
   * Stripe's payment method types the PaymentIntent will allow (src/acquirer/stripe/methods.ts):
   * the Element offers those the merchant's Stripe account turns on, with Apple Pay and Google Pay
   * as cards. Absent: cards only.
   */
  methodTypes?: string[];
  /**
   * Card registration (setup mode): the SetupIntent exists already; the Element mounts with its
   * client secret and the button confirms it (stripe.confirmSetup), no start step and no amount.
   * `failure` is why the last card was not saved, shown until the customer tries again.
   */
  setup?: { clientSecret: string; returnUrl: string; failure?: string };
  /** Shown while Stripe's form loads (and kept if it never does, beside the alert). */
  loadingLabel?: string;
  /** The form's words in the page's language (English when absent). */
  text?: StripeFormText;
}

/** The few calls of Stripe.js the island makes. */
interface StripeElement {
  mount(el: HTMLElement): void;
  on(event: 'ready', handler: () => void): void;
  destroy(): void;
}
interface StripeElements {
  create(type: 'payment', options?: Record<string, unknown>): StripeElement;
  update(options: { amount: number }): void;
  submit(): Promise<{ error?: StripeError }>;
}
interface StripeError {
  type?: string;
  message?: string;
}
interface StripeJs {
  elements(options: Record<string, unknown>): StripeElements;
  confirmPayment(options: { elements: StripeElements; clientSecret: string; confirmParams: { return_url: string } }): Promise<{ error?: StripeError }>;
  confirmSetup(options: { elements: StripeElements; clientSecret?: string; confirmParams: { return_url: string } }): Promise<{ error?: StripeError }>;
}
type StripeFactory = (publishableKey: string) => StripeJs;

let loading: Promise<StripeFactory> | undefined;

/** Adds Stripe.js to the page once (it must come from js.stripe.com, never from a bundle). */
function loadStripe(): Promise<StripeFactory> {
  const existing = (window as unknown as { Stripe?: StripeFactory }).Stripe;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = stripeJsUrl;
    script.async = true;
    script.onload = () => {
      const factory = (window as unknown as { Stripe?: StripeFactory }).Stripe;
      if (factory) resolve(factory);
      else reject(new Error('Stripe.js did not start'));
    };
    script.onerror = () => {
      loading = undefined;
      reject(new Error('Stripe.js could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** The form's own words in the page's language (src/i18n/island.ts stripeFormText); `required` has a {label}. */
export interface StripeFormText {
  legend: string;
  note: string;
  processing: string;
  load: string;
  loading: string;
  failed: string;
  unreachable: string;
  required: string;
}

/** The words in English, for a page that passes none. */
export const stripeFormMessages: StripeFormText = {
  legend: 'Card details',
  note: 'Your card details go directly to our payment provider, Stripe.',
  processing: 'Processing…',
  load: 'The card form could not be loaded. Check your connection and reload the page.',
  loading: 'Loading the secure card form from Stripe…',
  failed: 'Your payment could not be completed. Please try again.',
  unreachable: 'We could not reach the payment service. Check your connection and try again.',
  required: 'Enter your {label}',
};

/**
 * The typed amount in minor units, read by the server's rule with the page's separators ("1,234.5"
 * on an English page → 123450 at exponent 2, "25,00" on a Spanish one → 2500), exactly; or its refusal.
 * At most 10^15, so a safe integer for Stripe.js.
 */
export async function minorUnits(raw: string, rule: AmountRule): Promise<{ minor: number } | { message: string }> {
  const read = customerAmount(raw, rule, englishAmountMessages);
  return 'minor' in read ? { minor: Number(read.minor) } : read;
}

interface Started {
  provider_payment_id: string;
  client_key: string;
  return_url: string;
  /** A free trial: the key is a SetupIntent's. */
  mode?: 'setup';
}

const idFor = (name: string) => `f-${name.replace(/[^\w-]/g, '-')}`;

/** The inputs the form shows for the customer to type into (read-only fields and the card's frame aside). */
const inputNames = (props: StripeCardFormProps) => [...(props.fields ?? []).filter((f) => !f.readOnly).map((f) => f.name), ...(props.amount ? ['amount'] : [])];

export default class StripeCardForm extends Component<StripeCardFormProps, State> {
  private inFlight = false;
  /** Stripe.js never came (offline, blocked): the alert says so, and no empty card box is left. */
  private loadFailed = false;
  private mountEl: HTMLDivElement | null = null;
  private stripe?: StripeJs;
  private elements?: StripeElements;
  private element?: StripeElement;

  private get words(): StripeFormText {
    return this.props.text ?? stripeFormMessages;
  }

  constructor(props: StripeCardFormProps) {
    super(props);
    // What the customer typed into the server-rendered fields before the island came alive is kept
    // (hydration would otherwise reset every input to the empty initial state), as in CardForm. The
    // card itself is typed into Stripe's frame, which only exists once Stripe.js has loaded.
    const values: Record<string, string> = {};
    if (typeof document !== 'undefined') {
      for (const name of inputNames(props)) {
        const typed = (document.getElementById(idFor(name)) as HTMLInputElement | null)?.value;
        if (typed) values[name] = typed;
      }
    }
    this.state = { values, errors: {}, alert: props.setup?.failure ?? '', busy: false, ready: false };
  }

  async componentDidMount() {
    try {
      const factory = await loadStripe();
      this.stripe = factory(this.props.publishableKey);
      const { setup } = this.props;
      this.elements = this.stripe.elements(
        setup
          ? { clientSecret: setup.clientSecret, appearance: { theme: 'stripe' } }
          : this.props.trial
            ? // The card saved for its first charge at the trial's end, as the SetupIntent will be (usage off_session).
              {
                mode: 'setup',
                currency: this.props.currency,
                setupFutureUsage: 'off_session',
                allowedPaymentMethodTypes: ['card'],
                appearance: { theme: 'stripe' },
              }
            : {
                mode: 'payment',
                // An open amount starts at the smallest positive one; the typed amount replaces it on submit.
                amount: this.props.amountMinor ?? 100,
                currency: this.props.currency,
                // The same list the PaymentIntent is created with: Stripe.js requires that they match.
                allowedPaymentMethodTypes: this.props.methodTypes ?? ['card'],
                ...(this.props.saveCard ? { setupFutureUsage: 'off_session' } : {}),
                appearance: { theme: 'stripe' },
              },
      );
      // Apple Pay, Google Pay and Link show wherever Stripe offers them for this account and device.
      this.element = this.elements.create('payment', { layout: 'tabs', wallets: { applePay: 'auto', googlePay: 'auto', link: 'auto' } });
      this.element.on('ready', () => this.setState({ ready: true }));
      if (this.mountEl) this.element.mount(this.mountEl);
    } catch {
      this.loadFailed = true;
      // Why the last card was not saved stays readable above it.
      this.setState({ alert: [this.props.setup?.failure, this.words.load].filter(Boolean).join(' ') });
    }
  }

  componentWillUnmount() {
    this.element?.destroy();
  }

  private v = (name: string) => this.state.values[name] ?? '';
  private set = (name: string, value: string) => this.setState((old) => ({ values: { ...old.values, [name]: value }, errors: { ...old.errors, [name]: '' } }));

  /** Before the card goes to Stripe: required fields given and an amount Stripe.js can show (the server checks both again on start). */
  private async check(): Promise<{ errors: Errors; amountMinor?: number }> {
    const errors: Errors = {};
    for (const f of this.props.fields ?? [])
      if (!f.readOnly && f.required && !this.v(f.name).trim()) errors[f.name] = this.words.required.replace('{label}', f.label.toLowerCase());
    let amountMinor = this.props.amountMinor;
    if (this.props.amount) {
      const read = await minorUnits(this.v('amount'), this.props.amount.rule).catch(() => ({ message: this.words.unreachable }));
      if ('message' in read) errors.amount = read.message;
      else amountMinor = read.minor;
    }
    return { errors, amountMinor };
  }

  private fail(alert: string, errors: Errors = {}) {
    this.inFlight = false;
    this.setState({ alert, errors, busy: false });
  }

  private submit = async (event: Event) => {
    event.preventDefault();
    const { stripe, elements } = this;
    if (this.inFlight || !this.state.ready || !stripe || !elements) return;
    this.inFlight = true;
    const { errors, amountMinor } = await this.check();
    this.setState({ errors, alert: '' });
    const first = [...(this.props.fields ?? []).map((f) => f.name), 'amount'].find((k) => errors[k]);
    if (first) {
      this.inFlight = false;
      return void document.getElementById(idFor(first))?.focus();
    }
    this.setState({ busy: true });
    const { setup } = this.props;
    if (setup) {
      try {
        // Saving the card: the SetupIntent exists; Stripe checks the fields, runs 3-D Secure and
        // leaves for the return address on success. Only a failure comes back here.
        const { error } = await stripe.confirmSetup({ elements, confirmParams: { return_url: setup.returnUrl } });
        this.fail(error?.type === 'validation_error' ? '' : (error?.message ?? this.words.failed));
      } catch {
        this.fail(this.words.unreachable);
      }
      return;
    }
    try {
      if (this.props.amount && amountMinor) elements.update({ amount: amountMinor });
      // The Element checks the card fields and shows its own messages beside them.
      const checked = await elements.submit();
      if (checked.error) return this.fail(checked.error.type === 'validation_error' ? '' : (checked.error.message ?? this.words.failed));
      const started = await this.start();
      if (!started) return;
      const confirm = { elements, clientSecret: started.client_key, confirmParams: { return_url: started.return_url } };
      const { error } = started.mode === 'setup' ? await stripe.confirmSetup(confirm) : await stripe.confirmPayment(confirm);
      // Only a failure comes back here (success leaves for the return address): paylink records it there.
      await fetch(started.return_url, { redirect: 'manual' }).catch(() => undefined);
      this.fail(error?.message ?? this.words.failed);
    } catch {
      this.fail(this.words.unreachable);
    }
  };

  /** Step 2: paylink claims the attempt and creates the PaymentIntent; undefined when it refused (shown). */
  private async start(): Promise<Started | undefined> {
    const { fields = [], amount, extraBody, startUrl } = this.props;
    const body: Record<string, unknown> = { ...extraBody, fields: Object.fromEntries(fields.filter((f) => !f.readOnly).map((f) => [f.name, this.v(f.name)])) };
    // What the page sells (SaleFields), as its form would post it.
    const sale = document.getElementById('sale') as HTMLFormElement | null;
    if (sale) body.sale = String(new URLSearchParams(new FormData(sale) as never));
    // The text as typed with the page's language: the server reads it with the same separators.
    if (amount) Object.assign(body, { amount: this.v('amount').trim(), amount_locale: amount.rule.locale });
    const res = await fetch(startUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json().catch(() => undefined);
    const data = json?.data as (Partial<Started> & { redirect_url?: string }) | undefined;
    if (typeof data?.redirect_url === 'string' && data.redirect_url.startsWith('/')) {
      location.assign(data.redirect_url);
      return undefined;
    }
    if (data?.client_key && data.return_url && data.provider_payment_id) return data as Started;
    const messages = (json?.messages ?? {}) as Record<string, string[]> | string;
    if (typeof messages === 'string') return void this.fail(messages);
    const inline: Errors = {};
    const general: string[] = [];
    // Under their input when the form shows one (not a read-only field, nor the amount of a fixed-amount link); the rest in the alert.
    const named = new Set(inputNames(this.props));
    for (const [k, m] of Object.entries(messages)) named.has(k) ? (inline[k] = String(m[0])) : general.push(...m.map(String));
    this.fail(general.join(' ') || (Object.keys(inline).length ? '' : this.words.failed), inline);
    return undefined;
  }

  private input(name: string, label: string, attrs: Record<string, unknown>, hint?: string) {
    const id = idFor(name);
    const error = this.state.errors[name];
    return h(
      'div',
      { class: 'field', key: name },
      h('label', { for: id }, label),
      hint ? h('p', { id: `${id}-hint`, class: 'hint' }, hint) : null,
      h('input', {
        id,
        name,
        value: this.v(name),
        'aria-invalid': error ? 'true' : undefined,
        'aria-describedby': [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined,
        onInput: (e: Event) => this.set(name, (e.currentTarget as HTMLInputElement).value),
        ...attrs,
      }),
      error ? h('p', { id: `${id}-error`, class: 'field-error' }, error) : null,
    );
  }

  render() {
    const { fields = [], amount, buttonLabel, startUrl } = this.props;
    const { busy, ready, alert } = this.state;
    return h(
      'form',
      { class: 'card-form', method: this.props.setup ? 'get' : 'post', action: startUrl, noValidate: true, onSubmit: this.submit, 'data-acquirer': 'stripe' },
      fields.length > 0
        ? h(
            'div',
            { class: 'fields' },
            fields.map((f) =>
              f.readOnly
                ? h(
                    'div',
                    { class: 'field', key: f.name },
                    h('label', { for: idFor(f.name) }, f.label),
                    h('input', { id: idFor(f.name), name: f.name, value: f.value, readOnly: true, class: 'readonly' }),
                  )
                : this.input(
                    f.name,
                    f.label,
                    { type: f.type === 'select' ? 'text' : (f.type ?? 'text'), autocomplete: f.autocomplete, required: f.required },
                    f.hint,
                  ),
            ),
          )
        : null,
      amount ? this.input('amount', amount.label, { type: 'text', inputMode: 'decimal', required: true }, amount.hint) : null,
      this.loadFailed
        ? null
        : h(
            'fieldset',
            { class: 'card' },
            h('legend', null, this.words.legend),
            h('div', {
              class: 'stripe-element',
              ref: (el: HTMLDivElement | null) => {
                this.mountEl = el;
              },
            }),
          ),
      ready || this.loadFailed ? null : h('p', { class: 'hint stripe-loading', 'aria-live': 'polite' }, this.props.loadingLabel ?? this.words.loading),
      h('p', { class: 'hint' }, this.words.note),
      h('div', { tabIndex: -1, class: alert ? 'alert' : 'alert empty', role: 'alert' }, alert),
      h('button', { type: 'submit', class: 'pay', disabled: !ready, 'aria-disabled': busy ? 'true' : undefined }, busy ? this.words.processing : buttonLabel),
    );
  }
}
