import { describe, expect, it } from 'vitest';
import { linkPatchOf, newLinkOf, withWireFields } from '../../../src/api/link-input.ts';
import { DomainError, invalidFields } from '../../../src/domain/errors.ts';

/** The links API's snake_case body becomes the editor's camelCase settings, and refusals go back under the API's names. */
describe('links API edge › reading a body', () => {
  it('names each setting as the editor does and keeps absent settings absent', () => {
    expect(linkPatchOf({ min_amount: '10', brand_color: '#112233', callback_url: null, max_payments: 3 })).toEqual({
      minAmount: '10',
      brandColor: '#112233',
      callbackUrl: null,
      maxPayments: 3,
    });
  });

  it('turns a data: URL logo into a logo source, and null into "remove"', () => {
    expect(linkPatchOf({ logo: 'data:image/png;base64,AA==' }).logo).toEqual({ source: 'data:image/png;base64,AA==', baseDir: '/' });
    expect(linkPatchOf({ logo: null }).logo).toBeNull();
    expect('logo' in linkPatchOf({})).toBe(false);
  });

  it('keeps a new link’s slug, title and currency', () => {
    expect(newLinkOf({ slug: 'yoga', title: 'Yoga', currency: 'PHP', expires_at: '2027-01-01T00:00:00Z' })).toEqual({
      slug: 'yoga',
      title: 'Yoga',
      currency: 'PHP',
      expiresAt: '2027-01-01T00:00:00Z',
    });
  });
});

describe('links API edge › a refusal names the API’s fields', () => {
  it('renames each refused setting and each setting a message names', async () => {
    const refused = await withWireFields(async () => {
      throw invalidFields({ minAmount: ['must not be above {maxAmount}'], amount: ['must be given'] });
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('ER.02.30');
    expect((refused as DomainError).httpStatus).toBe(422);
    expect((refused as DomainError).messages).toEqual({ min_amount: ['must not be above max_amount'], amount: ['must be given'] });
  });

  it('lets any other failure through unchanged', async () => {
    const crash = new Error('disk on fire');
    await expect(withWireFields(() => Promise.reject(crash))).rejects.toBe(crash);
  });
});
