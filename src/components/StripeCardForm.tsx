/**
 * StripeCardForm — the card step for integrators whose acquirer is Stripe: Stripe's Payment
 * Element (an iframe served by Stripe) takes the card, so the number never touches paylink's page
 * or server (PCI SAQ A, docs/pci.md).
 *
 * Props (built and checked on the server by stripeCardFormProps, src/acquirer/stripe/element.ts):
 *   publishableKey  the integrator's pk_… key;
 *   clientSecret    the PaymentIntent's client_secret (it can confirm that one intent only);
 *   returnUrl       paylink's return page: Stripe comes back there after 3-D Secure or a redirect,
 *                   with ?payment_intent=…, and the server syncs the intent before showing a result;
 *   buttonLabel, busyLabel.
 * Stripe.js loads from js.stripe.com (the page's CSP is widened for Stripe's hosts by
 * allowStripeElement on these pages only). On submit the Element confirms the intent; an error
 * Stripe reports (a decline, an incomplete field) is shown above the button, and the customer can
 * try again.
 */
import { Component } from 'preact';

const stripeJsUrl = 'https://js.stripe.com/v3/';

export interface StripeCardFormProps {
  publishableKey: string;
  clientSecret: string;
  returnUrl: string;
  buttonLabel: string;
  busyLabel?: string;
}

/** The few calls of Stripe.js the island makes (Stripe.js has no types of its own on the page). */
interface StripeElement {
  mount(el: HTMLElement): void;
  on(event: 'ready' | 'change', handler: (e: { complete?: boolean }) => void): void;
  destroy(): void;
}
interface StripeElements {
  create(type: 'payment', options?: Record<string, unknown>): StripeElement;
}
interface StripeJs {
  elements(options: { clientSecret: string; appearance?: Record<string, unknown> }): StripeElements;
  confirmPayment(options: { elements: StripeElements; confirmParams: { return_url: string } }): Promise<{ error?: { type?: string; message?: string } }>;
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

interface State {
  ready: boolean;
  busy: boolean;
  alert: string;
}

/** What the customer reads when Stripe's own message is missing. */
export const stripeFallbackMessages = {
  load: 'The card form could not be loaded. Check your connection and reload the page.',
  confirm: 'Your payment could not be completed. Please try again.',
} as const;

export default class StripeCardForm extends Component<StripeCardFormProps, State> {
  state: State = { ready: false, busy: false, alert: '' };
  private mountEl: HTMLDivElement | null = null;
  private stripe?: StripeJs;
  private elements?: StripeElements;
  private element?: StripeElement;

  async componentDidMount() {
    try {
      const factory = await loadStripe();
      this.stripe = factory(this.props.publishableKey);
      this.elements = this.stripe.elements({ clientSecret: this.props.clientSecret, appearance: { theme: 'stripe' } });
      this.element = this.elements.create('payment', { layout: 'tabs' });
      this.element.on('ready', () => this.setState({ ready: true }));
      if (this.mountEl) this.element.mount(this.mountEl);
    } catch {
      this.setState({ alert: stripeFallbackMessages.load });
    }
  }

  componentWillUnmount() {
    this.element?.destroy();
  }

  private submit = async (e: Event) => {
    e.preventDefault();
    if (!this.stripe || !this.elements || this.state.busy) return;
    this.setState({ busy: true, alert: '' });
    // On success Stripe leaves the page for returnUrl; only an error comes back here.
    const { error } = await this.stripe.confirmPayment({ elements: this.elements, confirmParams: { return_url: this.props.returnUrl } });
    this.setState({ busy: false, alert: error?.message || stripeFallbackMessages.confirm });
  };

  render() {
    const { busy, ready, alert } = this.state;
    return (
      <form class="card-form" noValidate onSubmit={this.submit}>
        <fieldset class="card">
          <legend>Card details</legend>
          <div
            class="stripe-element"
            ref={(el) => {
              this.mountEl = el;
            }}
          />
        </fieldset>
        <div tabIndex={-1} class={alert ? 'alert' : 'alert empty'} role="alert">
          {alert}
        </div>
        <button type="submit" class="pay" disabled={!ready || busy} aria-disabled={busy ? 'true' : undefined}>
          {busy ? (this.props.busyLabel ?? 'Processing…') : this.props.buttonLabel}
        </button>
      </form>
    );
  }
}
