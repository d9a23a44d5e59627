import type { Connector, MethodSupport } from '../../acquirer/connector.ts';
import type { Link } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import type { PaymentMethod } from '../../schemas/payment-method.ts';
import { customerFormFields, type FormField } from '../links/form.ts';
import type { LinkWithMerchant } from '../links/service.ts';
import { offeredMethods } from './method-pay.ts';

/**
 * The methods a payment page offers, in the merchant's order (offeredMethods: the link's own list,
 * else the integrator's defaults, else every method the acquirer takes), less those that do not
 * take the page's currency (PayMongo's local methods: PHP only), which the method endpoint would refuse.
 */
export function pageMethods(found: LinkWithMerchant, connector: Pick<Connector, 'name' | 'capabilities'>, currency: string): MethodSupport[] {
  return offeredMethods(found.link, found.merchant, connector).filter((m) => !m.currencies || m.currencies.includes(currency));
}

/** The method a page opens on: the one the customer picked (`?method=`), else the merchant's first. */
export function chosenMethod(methods: readonly MethodSupport[], asked: string | null): PaymentMethod | undefined {
  const picked = methods.find((m) => m.method === asked);
  return (picked ?? methods[0])?.method;
}

/** The customer field each of a method's `requires` stands for. */
const requiredPaths: Record<MethodSupport['requires'][number], readonly string[]> = {
  name: ['customer.first_name', 'customer.last_name'],
  email: ['customer.contact.email'],
  phone: ['customer.contact.mobile'],
};

/**
 * The customer fields a method's panel asks: the link's, with what the method needs (BillEase: e-mail
 * and phone) made required, and added where the link does not ask it. Asked only on that method's
 * panel: the card form and the other methods keep the link's own fields.
 */
export function methodFormFields(
  link: Pick<Link, 'fields' | 'labels'>,
  systemValues: Record<string, string>,
  locale: Locale,
  requires: MethodSupport['requires'],
): FormField[] {
  const paths = new Set(requires.flatMap((r) => requiredPaths[r]));
  if (paths.size === 0) return customerFormFields(link, systemValues, locale);
  // The same field as the link would ask it (label, input hints, message), with every needed one asked.
  const asked = Object.fromEntries([...paths].map((path) => [path, 'customer' as const]));
  const widened = customerFormFields({ labels: link.labels, fields: { ...link.fields, ...asked } }, systemValues, locale);
  return widened.map((field) => (paths.has(field.name) && !field.readOnly ? { ...field, required: true } : field));
}
