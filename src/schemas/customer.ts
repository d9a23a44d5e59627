import { z } from 'zod';

/**
 * Who paid, as given: the spec §2.4 customer fields a payment recorded (typed by the customer on
 * the payment page, or sent by the integrator in a dynamic link body or a card registration).
 * Fields nobody gave are null; `billing_address` is null when no part of it was given.
 */
export const billingAddressViewSchema = z
  .object({
    line1: z.string().nullable().describe('Street address, first line.'),
    line2: z.string().nullable().describe('Street address, second line.'),
    city_municipality: z.string().nullable().describe('City or municipality.'),
    state_province_region: z.string().nullable().describe('State, province or region.'),
    zip: z.string().nullable().describe('Postal code.'),
    country_code: z.string().nullable().describe('ISO 3166-1 alpha-2 country code.'),
  })
  .strict()
  .meta({ id: 'BillingAddress' });

export const customerViewSchema = z
  .object({
    first_name: z.string().nullable().describe('Given name.'),
    last_name: z.string().nullable().describe('Family name.'),
    name: z.string().nullable().describe('The full name as one string (first and last name, or the card registration’s customer name).'),
    email: z.string().nullable().describe('E-mail address.'),
    mobile: z.string().nullable().describe('Mobile number with its leading plus sign.'),
    billing_address: billingAddressViewSchema.nullable().describe('Billing (or shipping) address as given; null when none was given.'),
  })
  .strict()
  .meta({ id: 'Customer', description: 'The customer as given on the payment; null fields were not given.' });
export type CustomerView = z.infer<typeof customerViewSchema>;
