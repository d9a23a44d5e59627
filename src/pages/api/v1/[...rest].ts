import type { APIRoute } from 'astro';
import { buildEnvelope, envelopeResponse } from '../../../api/envelope.ts';

/** Any path under /api/v1 that no route matches. */
export const ALL: APIRoute = ({ url }) =>
  envelopeResponse(
    buildEnvelope({
      code: 'ER.02.34',
      path: url.pathname,
      messages: { path: [`no API endpoint at ${url.pathname}; the API reference at /docs/api lists every endpoint`] },
    }),
  );
