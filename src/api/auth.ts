import type { PaylinkApp } from '../app.ts';
import { DomainError } from '../domain/errors.ts';
import { isLinkKeyShaped } from '../domain/integrators/link-keys.ts';
import type { Integrator } from '../domain/integrators/service.ts';

/**
 * A known link key sent where the API token belongs: refused (403 ER.01.30) but not counted as a
 * failed authentication, since the key is right, only in the wrong place. It counts as a request
 * of its integrator instead (src/api/endpoint.ts), so it is no way around either limit.
 */
export class LinkKeyInApiError extends DomainError {
  /** By its code: DomainError's own test (a registered symbol) would take every DomainError for this one. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return DomainError[Symbol.hasInstance](value) && (value as DomainError).code === 'ER.01.30';
  }

  constructor(readonly integratorId: string) {
    super('ER.01.30', 'This key can only create payment links', {
      messages: {
        authorization: ['is a publishable link key, which only creates checkouts through POST /pay/{slug}: send your API token here (Console → Developers)'],
      },
    });
  }
}

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
  if (isLinkKeyShaped(token)) {
    // Only a key that opens an integrator is told apart; any other is unknown, like a wrong token.
    const owner = await app.tokenCache.findByLinkKey(token, app.now());
    if (owner) throw new LinkKeyInApiError(owner.id);
  }
  const integrator = await app.tokenCache.find(token, app.now());
  if (!integrator) throw new DomainError('ER.01.00', 'Unknown Authorization token', { messages: { authorization: ['does not match any integrator'] } });
  return integrator;
}
