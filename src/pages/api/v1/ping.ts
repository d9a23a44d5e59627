import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';

/** No authentication, no database: tells an integrator the API answers (and is the benchmark baseline). */
export const GET = apiEndpoint({
  auth: 'none',
  run: async () => ({ code: 'OK.00.00' }),
});
export const ALL = methodNotAllowed(['GET']);
