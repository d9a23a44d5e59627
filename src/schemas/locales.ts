/** The languages payment pages, receipts and customer e-mails speak (BCP 47 tags). */
export const locales = ['en', 'fil', 'es'] as const;
