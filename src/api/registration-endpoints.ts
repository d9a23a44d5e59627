import { registrationForPage } from '../domain/cards/service.ts';
import { syncRegistrationSetup } from '../domain/cards/setup.ts';
import { apiEndpoint } from './endpoint.ts';
import { requestLocale } from './page-locale.ts';

/**
 * GET /register/{token}/return: the acquirer sends the customer back here after the browser
 * confirmed the card setup (3-D Secure included). The setup is read again from the acquirer (never
 * from the query the browser brings) and a success activates the registration; the registration
 * page then shows the saved card, or why the card was not saved.
 */
export const registrationReturn = apiEndpoint({
  auth: 'none',
  idempotent: false,
  run: async ({ app, params, request }) => {
    const token = params.token ?? '';
    const page = await registrationForPage(app, token);
    // An expired link still records a card the customer gave on the page while it was valid.
    if (page.state === 'open' || page.state === 'expired') {
      try {
        // Right after 3-D Secure the provider may still say "processing": ask again for a few seconds.
        for (let i = 0; i < 6 && (await syncRegistrationSetup(app, page.row, requestLocale(request)))?.status === 'pending'; i++)
          await new Promise((r) => setTimeout(r, 500));
      } catch (error) {
        // The webhook or the page's own sync records it.
        app.log.warn('registration return: sync failed', { reference: page.row.reference, error });
      }
    }
    return new Response(null, { status: 303, headers: { location: `/register/${encodeURIComponent(token)}`, 'cache-control': 'no-store' } });
  },
});
