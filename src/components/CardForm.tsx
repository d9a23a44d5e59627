/**
 * CardForm — the card entry island, reused by checkout (issue 3) and hosted card registration.
 *
 * Props:
 *   submitUrl    same-origin URL the form POSTs JSON to (e.g. /checkout/{token}/pay).
 *   buttonLabel  the submit button's text, e.g. "Pay ₱250.00" or "Save card". With `amount`, the
 *                typed amount is appended ("Pay ₱120.00") once it reads as a number.
 *   fields       extra fields shown before the card, in order (ExtraField below): inputs the
 *                customer fills (sent as `fields[name]`) and read-only values (shown, not sent).
 *   amount       ask for an amount: { label, currency, hint? } (sent as `amount`, a decimal string).
 *   extraBody    JSON merged into every request body (e.g. { session: "<page token>" }).
 *   cardLegend   legend of the card fieldset (default "Card details").
 *   busyLabel    button text while the request runs (default "Processing…").
 *
 * Request body: { ...extraBody, amount?, fields: { [name]: value }, card: { number, expiry,
 * cvc, name } } as application/json. The server answers with the API envelope:
 *   data.redirect_url        → the browser goes there (receipt, return page);
 *   messages[name]           → shown under that input (`card.number`, `card.expiry`, `card.cvc`,
 *                              `card.name`, `amount`, or an extra field's name);
 *   any other messages       → shown in the alert above the button, with the card number and
 *                              security code cleared so the customer can try another card.
 * Inputs are checked in the browser with the same zod/mini schemas the server uses
 * (src/schemas/card.ts, src/schemas/checkout.ts); the server checks everything again.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { brandLabels, cardSchema, cvcLength, detectBrand, formatCardNumber, formatExpiry } from '../schemas/card.ts';
import { type CustomerFieldPath, customerFieldSchemas } from '../schemas/checkout.ts';
import { issuesToMessages } from '../schemas/parse.ts';

export interface ExtraField {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'select';
  autocomplete?: string;
  inputmode?: 'text' | 'email' | 'tel' | 'decimal' | 'numeric';
  required?: boolean;
  value?: string;
  readOnly?: boolean;
  options?: [string, string][];
  hint?: string;
}

export interface CardFormProps {
  submitUrl: string;
  buttonLabel: string;
  fields?: ExtraField[];
  amount?: { label: string; currency: string; hint?: string };
  extraBody?: Record<string, unknown>;
  cardLegend?: string;
  busyLabel?: string;
}

type Errors = Record<string, string>;
const CARD_KEYS = ['card.number', 'card.expiry', 'card.cvc', 'card.name'];

const idFor = (name: string) => `f-${name.replace(/[^\w-]/g, '-')}`;

function fieldError(field: ExtraField, value: string): string | undefined {
  const schema = customerFieldSchemas[field.name as CustomerFieldPath];
  if (value.trim() === '') return field.required ? `Enter ${field.label.toLowerCase()}` : undefined;
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]!.message;
}

function amountError(value: string): string | undefined {
  const text = value.replace(/,/g, '').trim();
  if (text === '') return 'Enter the amount to pay';
  return /^\d+(\.\d+)?$/.test(text) && Number(text) > 0 ? undefined : 'Enter an amount such as 100.00';
}

function formatAmount(value: string, currency: string): string | undefined {
  const text = value.replace(/,/g, '').trim();
  if (amountError(text)) return undefined;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(Number(text));
  } catch {
    return undefined;
  }
}

export default function CardForm(props: CardFormProps) {
  const { fields = [], amount } = props;
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [alert, setAlert] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const inFlight = useRef(false);
  const alertRef = useRef<HTMLDivElement>(null);
  useEffect(() => setReady(true), []);

  const value = (name: string) => values[name] ?? '';
  const brand = detectBrand(value('card.number'));
  const set = (name: string, v: string) => {
    setValues((old) => ({ ...old, [name]: v }));
    if (errors[name]) setErrors((old) => ({ ...old, [name]: '' }));
  };

  const cardErrors = (): Errors => {
    const parsed = cardSchema.safeParse({ number: value('card.number'), expiry: value('card.expiry'), cvc: value('card.cvc'), name: value('card.name') });
    const out: Errors = {};
    if (!parsed.success) for (const [k, v] of Object.entries(issuesToMessages(parsed.error.issues, 'card'))) out[k] = v[0]!;
    return out;
  };

  const validateAll = (): Errors => {
    const out: Errors = {};
    for (const f of fields) {
      if (f.readOnly) continue;
      const e = fieldError(f, value(f.name));
      if (e) out[f.name] = e;
    }
    if (amount) {
      const e = amountError(value('amount'));
      if (e) out.amount = e;
    }
    return { ...out, ...cardErrors() };
  };

  const blur = (name: string) => {
    if (value(name) === '') return;
    let e: string | undefined;
    if (name.startsWith('card.')) e = cardErrors()[name];
    else if (name === 'amount') e = amountError(value(name));
    else {
      const f = fields.find((x) => x.name === name);
      e = f && fieldError(f, value(name));
    }
    setErrors((old) => ({ ...old, [name]: e ?? '' }));
  };

  const focusFirst = (errs: Errors) => {
    const first = [...fields.map((f) => f.name), 'amount', ...CARD_KEYS].find((k) => errs[k]);
    if (first) document.getElementById(idFor(first))?.focus();
  };

  const clearCard = () => setValues((old) => ({ ...old, 'card.number': '', 'card.cvc': '' }));

  async function submit(event: Event) {
    event.preventDefault();
    if (inFlight.current || !ready) return;
    setAlert('');
    const errs = validateAll();
    setErrors(errs);
    if (Object.values(errs).some(Boolean)) {
      focusFirst(errs);
      return;
    }
    inFlight.current = true;
    setBusy(true);
    const body: Record<string, unknown> = {
      ...props.extraBody,
      fields: Object.fromEntries(fields.filter((f) => !f.readOnly).map((f) => [f.name, value(f.name)])),
      card: { number: value('card.number'), expiry: value('card.expiry'), cvc: value('card.cvc'), name: value('card.name') },
    };
    if (amount) body.amount = value('amount').replace(/,/g, '').trim();
    let redirected = false;
    try {
      const response = await fetch(props.submitUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        credentials: 'same-origin',
      });
      const json = await response.json().catch(() => undefined);
      const redirect = json?.data?.redirect_url;
      if (typeof redirect === 'string' && redirect.startsWith('/')) {
        redirected = true;
        clearCard();
        location.assign(redirect);
        return;
      }
      const messages = json?.messages;
      const inline: Errors = {};
      const general: string[] = [];
      if (messages && typeof messages === 'object') {
        const known = new Set([...fields.map((f) => f.name), 'amount', ...CARD_KEYS]);
        for (const [k, v] of Object.entries(messages as Record<string, string[]>)) {
          if (known.has(k)) inline[k] = String(v[0]);
          else general.push(...v.map(String));
        }
      } else if (typeof messages === 'string') general.push(messages);
      if (Object.keys(inline).length === 0 && general.length === 0) {
        general.push(json?.data?.status_description ?? 'Something went wrong. Please try again.');
      }
      setErrors(inline);
      if (general.length > 0) {
        clearCard();
        setAlert(general.join(' '));
        alertRef.current?.focus();
      } else focusFirst(inline);
    } catch {
      setAlert('We could not reach the server. Check your connection and try again; you have not been charged twice.');
      alertRef.current?.focus();
    } finally {
      if (!redirected) {
        inFlight.current = false;
        setBusy(false);
      }
    }
  }

  const described = (name: string, hint?: string) => [hint ? `${idFor(name)}-hint` : '', errors[name] ? `${idFor(name)}-error` : ''].filter(Boolean).join(' ') || undefined;
  const errorText = (name: string) =>
    errors[name] ? (
      <p id={`${idFor(name)}-error`} class="field-error">
        {errors[name]}
      </p>
    ) : null;

  const input = (name: string, label: string, attrs: Record<string, unknown>, hint?: string) => (
    <div class="field" key={name}>
      <label for={idFor(name)}>{label}</label>
      {hint && (
        <p id={`${idFor(name)}-hint`} class="hint">
          {hint}
        </p>
      )}
      <input
        id={idFor(name)}
        name={name}
        value={value(name)}
        aria-invalid={errors[name] ? 'true' : undefined}
        aria-describedby={described(name, hint)}
        onInput={(e) => set(name, (e.currentTarget as HTMLInputElement).value)}
        onBlur={() => blur(name)}
        {...attrs}
      />
      {errorText(name)}
    </div>
  );

  const extra = (f: ExtraField) => {
    if (f.readOnly) {
      return (
        <div class="field" key={f.name}>
          <label for={idFor(f.name)}>{f.label}</label>
          <input id={idFor(f.name)} name={f.name} value={f.value} readOnly aria-readonly="true" class="readonly" type={f.type === 'select' ? 'text' : (f.type ?? 'text')} />
        </div>
      );
    }
    if (f.type === 'select') {
      return (
        <div class="field" key={f.name}>
          <label for={idFor(f.name)}>{f.label}</label>
          <select
            id={idFor(f.name)}
            name={f.name}
            autocomplete={f.autocomplete}
            required={f.required}
            aria-invalid={errors[f.name] ? 'true' : undefined}
            aria-describedby={described(f.name)}
            value={value(f.name)}
            onChange={(e) => set(f.name, (e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">Choose…</option>
            {f.options?.map(([code, name]) => (
              <option value={code}>{name}</option>
            ))}
          </select>
          {errorText(f.name)}
        </div>
      );
    }
    return input(f.name, f.label, { type: f.type ?? 'text', autocomplete: f.autocomplete, inputmode: f.inputmode, required: f.required }, f.hint);
  };

  const shownAmount = amount ? formatAmount(value('amount'), amount.currency) : undefined;
  const label = busy ? (props.busyLabel ?? 'Processing…') : shownAmount ? `${props.buttonLabel} ${shownAmount}` : props.buttonLabel;

  return (
    <form class="card-form" method="post" action={props.submitUrl} noValidate onSubmit={submit}>
      {fields.length > 0 && <div class="fields">{fields.map(extra)}</div>}
      {amount && input('amount', amount.label, { type: 'text', inputmode: 'decimal', autocomplete: 'transaction-amount', required: true }, amount.hint)}
      <fieldset class="card">
        <legend>{props.cardLegend ?? 'Card details'}</legend>
        <div class="field">
          <label for={idFor('card.number')}>Card number</label>
          <div class="with-brand">
            <input
              id={idFor('card.number')}
              name="cardnumber"
              type="text"
              inputMode="numeric"
              autocomplete="cc-number"
              autoCorrect="off"
              spellcheck={false}
              required
              maxLength={23}
              placeholder="1234 1234 1234 1234"
              value={value('card.number')}
              aria-invalid={errors['card.number'] ? 'true' : undefined}
              aria-describedby={[brand ? `${idFor('card.number')}-brand` : '', errors['card.number'] ? `${idFor('card.number')}-error` : ''].filter(Boolean).join(' ') || undefined}
              onInput={(e) => set('card.number', formatCardNumber((e.currentTarget as HTMLInputElement).value))}
              onBlur={() => blur('card.number')}
            />
            <span id={`${idFor('card.number')}-brand`} class="brand" aria-live="polite">
              {brand ? brandLabels[brand] : ''}
            </span>
          </div>
          {errorText('card.number')}
        </div>
        <div class="row">
          {input('card.expiry', 'Expiry date', { type: 'text', inputMode: 'numeric', autocomplete: 'cc-exp', required: true, placeholder: 'MM / YY', maxLength: 9, onInput: (e: Event) => set('card.expiry', formatExpiry((e.currentTarget as HTMLInputElement).value)) }, 'MM/YY')}
          {input('card.cvc', 'Security code', { type: 'text', inputMode: 'numeric', autocomplete: 'cc-csc', required: true, maxLength: 4, placeholder: brand === 'amex' ? '4 digits' : '3 digits', onInput: (e: Event) => set('card.cvc', (e.currentTarget as HTMLInputElement).value.replace(/\D/g, '').slice(0, cvcLength(brand))) })}
        </div>
        {input('card.name', 'Name on card', { type: 'text', autocomplete: 'cc-name', required: true, spellcheck: false })}
      </fieldset>
      <div ref={alertRef} tabIndex={-1} class={alert ? 'alert' : 'alert empty'} role="alert">
        {alert}
      </div>
      <button type="submit" class="pay" disabled={!ready} aria-disabled={busy ? 'true' : undefined}>
        {label}
      </button>
    </form>
  );
}
