import type { PaylinkApp } from '../app.ts';
import { DomainError } from '../domain/errors.ts';
import type { Integrator } from '../domain/integrators/service.ts';

/** `Authorization: <token>` (as the spec) or `Authorization: Bearer <token>`. */
export function tokenFromAuthorization(header: string | null): string | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  const token = (bearer ? bearer[1]! : value).trim();
  return token === '' ? undefined : token;
}

export async function authenticate(app: PaylinkApp, request: Request): Promise<Integrator> {
  const token = tokenFromAuthorization(request.headers.get('authorization'));
  if (!token) {
    throw new DomainError('ER.01.00', 'Missing Authorization token', {
      messages: { authorization: ['is required: send your API token as `Authorization: <token>` or `Authorization: Bearer <token>`'] },
    });
  }
  const integrator = await app.integratorTokens.find(token, app.now());
  if (!integrator) throw new DomainError('ER.01.00', 'Unknown Authorization token', { messages: { authorization: ['does not match any integrator'] } });
  return integrator;
}
