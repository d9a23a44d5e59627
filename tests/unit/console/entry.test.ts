import { describe, expect, it, vi } from 'vitest';
import type { ConsoleAstro } from '../../../src/console/entry.ts';
import { consoleEntry } from '../../../src/console/entry.ts';
import { invalidFields } from '../../../src/domain/errors.ts';

interface Who {
  role: 'owner' | 'staff';
}

/** A session kind that is always signed in as `who`, with the given form (POST) or none (GET). */
function entryFor(who: Who, form?: Record<string, string>) {
  const data = form ? new FormData() : undefined;
  for (const [name, value] of Object.entries(form ?? {})) data?.append(name, value);
  const open = consoleEntry<Who>({
    open: async () => ({
      identity: who,
      csrf: 'token',
      from: { ip: null, userAgent: null },
      form: data,
      field: (name: string) => form?.[name] ?? '',
    }),
    isOwner: (identity) => identity.role === 'owner',
  });
  const astro = {
    request: new Request('http://localhost/console/x', { method: form ? 'POST' : 'GET' }),
    url: new URL('http://localhost/console/x'),
    locals: { paylink: {} },
    response: { status: 200 },
    redirect: (path: string, status = 302) => new Response(null, { status, headers: { location: path } }),
  } as unknown as ConsoleAstro & { response: { status: number } };
  return { open, astro };
}

describe('console entry › one door for every signed-in page', () => {
  it('a GET runs no action and hands over the session', async () => {
    const { open, astro } = entryFor({ role: 'owner' });
    const save = vi.fn();
    const view = await open(astro, { actions: { save } });
    expect(view).toMatchObject({ owner: true, notFound: false, action: '', messages: {}, result: undefined });
    expect(save).not.toHaveBeenCalled();
  });

  it('staff on an owner-only page get its 404, and their form runs nothing', async () => {
    const { open, astro } = entryFor({ role: 'staff' }, { action: 'save' });
    const save = vi.fn();
    const view = await open(astro, { ownerOnly: true, actions: { save } });
    expect(view).toMatchObject({ notFound: true, owner: false });
    expect(astro.response.status).toBe(404);
    expect(save).not.toHaveBeenCalled();
  });

  it('a form naming no action of the page is a 400 "Unknown action." and runs nothing', async () => {
    const { open, astro } = entryFor({ role: 'owner' }, { action: 'drop-tables' });
    const save = vi.fn();
    const view = await open(astro, { actions: { save } });
    expect(view).toMatchObject({ messages: { '(request)': ['Unknown action.'] } });
    expect(astro.response.status).toBe(400);
    expect(save).not.toHaveBeenCalled();
  });

  it('a refused action gives the page its refusal and status, and no result', async () => {
    const { open, astro } = entryFor({ role: 'owner' }, { action: 'save' });
    const view = await open(astro, {
      actions: {
        save: async () => {
          throw invalidFields({ email: ['is not an e-mail address'] });
        },
      },
    });
    expect(view).toMatchObject({ result: undefined, messages: { email: ['is not an e-mail address'] }, refusal: { code: 'ER.02.30', status: 422 } });
    expect(astro.response.status).toBe(422);
  });

  it('an action that is done answers with its redirect (303)', async () => {
    const { open, astro } = entryFor({ role: 'owner' }, { action: 'remove' });
    const answer = await open(astro, { actions: { remove: async ({ seeOther }) => seeOther('/console/users') } });
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(303);
    expect((answer as Response).headers.get('location')).toBe('/console/users');
  });

  it('a form without a named action goes to `otherwise`; its result reaches the page', async () => {
    const { open, astro } = entryFor({ role: 'owner' }, { role: 'staff' });
    const view = await open(astro, { actions: { remove: vi.fn() }, otherwise: async ({ field }) => `role ${field('role')}` });
    expect(view).toMatchObject({ result: 'role staff' });
    expect(astro.response.status).toBe(200);
  });

  it('errors that are not refusals go on (a 500, never a form message)', async () => {
    const { open, astro } = entryFor({ role: 'owner' }, { action: 'save' });
    const broken = new Error('invariant');
    await expect(open(astro, { actions: { save: async () => Promise.reject(broken) } })).rejects.toBe(broken);
  });
});
