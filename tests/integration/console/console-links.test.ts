import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assets, auditLog, links } from '../../../src/db/schema.ts';
import { CONSOLE_USERS, call, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { CONSOLE_JS_BUDGET, measurePageScripts } from '../../support/checkout-weight.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';

/**
 * Payment links in the console: the list (with paid counts), the editor (create, change, logo,
 * refusals beside the fields), its live preview, and who may use them: owners of the link's
 * integrator only; staff see the links but cannot change them, other integrators get 404; neither changes anything.
 */
const served = useServedApp();
const { acmeOwner, acmeStaff, otherOwner } = CONSOLE_USERS;

async function signedIn(user: { email: string; password: string }) {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(user.email, user.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}

/** The editor's form as a browser sends it, with `over` changed (label/mode inputs left at their defaults). */
const editorForm = (over: Record<string, string> = {}): Record<string, string> => ({
  title: 'Concert ticket',
  description: 'Front row',
  amount_mode: 'fixed',
  amount: '1200.00',
  min_amount: '',
  max_amount: '',
  currency: 'PHP',
  brand_color: '#7c2d12',
  callback_url: '',
  active: 'on',
  expires_at: '',
  max_payments: '',
  success_url: '',
  cancel_url: '',
  locale: '',
  ...over,
});

const linkRow = async (slug: string) => (await served.t.app.db.select().from(links).where(eq(links.slug, slug)))[0];
const auditOf = async (action: string, target: string) =>
  (
    await served.t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.target, target)))
  ).length;
const tableCounts = async () => ({
  links: (await served.t.app.db.select({ n: count() }).from(links))[0]!.n,
  assets: (await served.t.app.db.select({ n: count() }).from(assets))[0]!.n,
  audit: (await served.t.app.db.select({ n: count() }).from(auditLog))[0]!.n,
});

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cf00000301010018dd8db40000000049454e44ae426082',
  'hex',
);
const SVG_WITH_SCRIPT =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="10" height="10" fill="#123456"/></svg>';

function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer | string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set(
    'logo',
    file
      ? new File([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)], file.name, { type: file.type })
      : new File([], '', { type: 'application/octet-stream' }),
  );
  return form;
}

describe('console › payment links list', () => {
  it('lists the integrator’s links with address, amount, state and paid payments counted per link', async () => {
    // Two paid payments on acme-books and one declined: the list counts the paid ones.
    for (const number of ['4242424242424242', '5555555555554444', '4000000000000002']) {
      const html = await (await fetch(`${served.server.url}/pay/acme-books`)).text();
      const session = /&quot;session&quot;:\[0,&quot;([^&]+)&quot;\]/.exec(html)![1]!;
      const fields = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };
      await call(served.server.url, 'POST', '/pay/acme-books/pay', {
        token: null,
        body: { session, fields, card: { number, expiry: CARD_EXPIRY, cvc: '123', name: 'Juan' } },
      });
    }
    const owner = await signedIn(acmeOwner);
    const page = await owner.get('/console/links');
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('Payment links');
    expect(page.html).toContain('href="/console/links/new"');
    expect(text).toContain(`Acme Books ${served.server.url}/pay/acme-books ₱250.00 Active 2`);
    expect(text).toContain(`Acme donation ${served.server.url}/pay/acme-open Open, any amount in PHP Active 0`);
    expect(text).not.toContain('Other Shop');
  });

  it('pages with the API’s keyset cursors and says plainly when a cursor names no link of this integrator', async () => {
    const owner = await signedIn(acmeOwner);
    const first = await owner.get('/console/links?limit=1');
    const older = /href="\/console\/links\?starting_after=(lnk_[^"]+)"/.exec(first.html)?.[1];
    expect(older).toBeDefined();
    const second = await owner.get(`/console/links?limit=1&starting_after=${older}`);
    expect(second.status).toBe(200);
    expect(second.html).toContain(`href="/console/links?ending_before=`);
    const foreign = (await served.t.app.db.select().from(links).where(eq(links.slug, 'other-shop')))[0]!;
    const refused = await owner.get(`/console/links?starting_after=${foreign.id}`);
    expect(refused.status).toBe(404);
    expect(textOf(refused.html)).toContain('does not exist');
  });
});

describe('console › link editor', () => {
  it('creates a link with a chosen slug, writes an audit entry, and /pay/{slug} shows it at once', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.post('/console/links/new', editorForm({ slug: 'concert', 'label.customer.first_name': 'Given name' }));
    expect(res.status, textOf(res.html)).toBe(303);
    expect(res.location).toBe('/console/links/concert?created=1');
    const row = (await linkRow('concert'))!;
    expect(row).toMatchObject({
      title: 'Concert ticket',
      amountMinor: 120000n,
      brandColor: '#7c2d12',
      active: true,
      labels: { 'customer.first_name': 'Given name' },
    });
    expect(await auditOf('link.created', 'concert')).toBe(1);
    const pay = await (await fetch(`${served.server.url}/pay/concert`)).text();
    expect(textOf(pay)).toContain('Concert ticket');
    expect(pay).toContain('Given name');
    const editor = await owner.get('/console/links/concert?created=1');
    expect(textOf(editor.html)).toContain('The link is created.');
    expect(editor.html).toContain(`${served.server.url}/pay/concert`);
  });

  it('generates a slug when none is given', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.post('/console/links/new', editorForm({ title: 'No slug given' }));
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/console\/links\/link-[0-9a-f]{10}\?created=1$/);
  });

  it('shows an active static link’s QR code with SVG and PNG downloads, and none for an inactive link', async () => {
    const owner = await signedIn(acmeOwner);
    const { html } = await owner.get('/console/links/acme-books');
    expect(html).toContain('<img src="/pay/acme-books/qr.svg"');
    expect(html).toContain('href="/pay/acme-books/qr.png"');
    expect((await fetch(`${served.server.url}/pay/acme-books/qr.svg`)).status).toBe(200);
    const inactive = editorForm({ slug: 'qr-off' });
    delete inactive.active; // an unticked checkbox is not sent
    await owner.post('/console/links/new', inactive);
    expect((await linkRow('qr-off'))?.active).toBe(false);
    const off = await owner.get('/console/links/qr-off');
    expect(off.status).toBe(200);
    expect(off.html).not.toContain('/pay/qr-off/qr.svg');
  });

  it('changes a link (title, open amount with bounds) and the payment page shows the change without a restart', async () => {
    const owner = await signedIn(acmeOwner);
    await owner.post('/console/links/new', editorForm({ slug: 'workshop' }));
    const res = await owner.post(
      '/console/links/workshop',
      editorForm({ title: 'Pottery class', amount_mode: 'open', amount: '', min_amount: '100', max_amount: '900.50' }),
    );
    expect(res.status, textOf(res.html)).toBe(200);
    expect(textOf(res.html)).toContain('Saved. The payment page shows the change now.');
    expect(await linkRow('workshop')).toMatchObject({ title: 'Pottery class', amountMinor: null, minAmountMinor: 10000n, maxAmountMinor: 90050n });
    expect(await auditOf('link.updated', 'workshop')).toBe(1);
    const pay = textOf(await (await fetch(`${served.server.url}/pay/workshop`)).text());
    expect(pay).toContain('Pottery class');
    expect(pay).toContain('at least ₱100.00 and at most ₱900.50');
    const list = textOf((await owner.get('/console/links')).html);
    expect(list).toContain('Pottery class');
    expect(list).toContain('Open, ₱100.00–₱900.50');
  });

  it('uploads a logo through the multipart form (stored as an asset, shown on the page) and removes it', async () => {
    const owner = await signedIn(acmeOwner);
    await owner.post('/console/links/new', editorForm({ slug: 'with-logo' }));
    const up = await owner.postMultipart('/console/links/with-logo', multipart(editorForm(), { name: 'logo.png', type: 'image/png', bytes: PNG }));
    expect(up.status, textOf(up.html)).toBe(200);
    const withLogo = (await linkRow('with-logo'))!;
    expect(withLogo.logoAssetId).toMatch(/^img_/);
    expect(await (await fetch(`${served.server.url}/pay/with-logo`)).text()).toContain(`/assets/${withLogo.logoAssetId}`);
    // A save without a new file keeps the logo.
    await owner.postMultipart('/console/links/with-logo', multipart(editorForm({ title: 'Still has a logo' })));
    expect((await linkRow('with-logo'))!.logoAssetId).toBe(withLogo.logoAssetId);
    await owner.postMultipart('/console/links/with-logo', multipart(editorForm({ remove_logo: 'on' })));
    expect((await linkRow('with-logo'))!.logoAssetId).toBeNull();
  });

  it('refuses bad settings beside their fields with the catalogue’s status, and saves nothing', async () => {
    const owner = await signedIn(acmeOwner);
    const before = await tableCounts();
    const res = await owner.postMultipart(
      '/console/links/new',
      multipart(editorForm({ slug: 'refused', title: '', currency: 'PHX', brand_color: 'red', callback_url: 'ftp://x', max_payments: '0' }), {
        name: 'logo.txt',
        type: 'text/plain',
        bytes: 'not an image',
      }),
    );
    expect(res.status).toBe(422);
    const text = textOf(res.html);
    expect(text).toContain('Nothing was saved: 4 settings need a change (marked below).');
    expect(text).toContain('Title must not be empty');
    expect(text).toContain('Brand colour must be a colour such as #1a56db');
    expect(text).toContain('Most payments must be at least 1');
    expect(res.html).toMatch(/id="field-title"[^>]*aria-invalid="true"/);
    // The form keeps what was typed.
    expect(res.html).toMatch(/<option value="PHX" selected>PHX<\/option>/);
    expect(await linkRow('refused')).toBeUndefined();
    expect(await tableCounts()).toEqual(before);

    // A fixed amount must be given; a change to an existing link that is refused changes nothing.
    const change = await owner.post('/console/links/acme-books', editorForm({ title: 'Changed?', amount: '' }));
    expect(change.status).toBe(422);
    expect(textOf(change.html)).toContain('Amount must be given for a fixed amount');
    expect((await linkRow('acme-books'))!.title).toBe('Acme Books');
    const logo = await owner.postMultipart(
      '/console/links/acme-books',
      multipart(editorForm({ title: 'Changed?', amount: '250.00' }), { name: 'x.svg', type: 'image/svg+xml', bytes: 'plain text' }),
    );
    expect(logo.status).toBe(422);
    expect(textOf(logo.html)).toContain('The logo must be a PNG, JPEG, WebP or SVG image');
    expect((await linkRow('acme-books'))!.title).toBe('Acme Books');
  });

  it('keeps a logo chosen for a refused save (shown as a thumbnail), and the next save stores it without choosing it again', async () => {
    const owner = await signedIn(acmeOwner);
    await owner.post('/console/links/new', editorForm({ slug: 'logo-kept' }));
    const refused = await owner.postMultipart(
      '/console/links/logo-kept',
      multipart(editorForm({ brand_color: 'blue' }), { name: 'logo.png', type: 'image/png', bytes: PNG }),
    );
    expect(refused.status).toBe(422);
    expect(textOf(refused.html)).toContain('Brand colour must be a colour such as #1a56db');
    expect(textOf(refused.html)).toContain('Chosen logo, not saved yet');
    expect(refused.html).toMatch(/<img src="data:image\/png;base64,[^"]+" alt="Chosen logo" height="48"/);
    const pending = /name="pending_logo" value="([^"]+)"/.exec(refused.html)?.[1];
    expect(pending).toBe(`data:application/octet-stream;base64,${PNG.toString('base64')}`);
    expect((await linkRow('logo-kept'))!.logoAssetId).toBeNull();

    const saved = await owner.postMultipart('/console/links/logo-kept', multipart(editorForm({ pending_logo: pending! })));
    expect(saved.status, textOf(saved.html)).toBe(200);
    const assetId = (await linkRow('logo-kept'))!.logoAssetId;
    expect(assetId).toMatch(/^img_/);
    // The saved logo's thumbnail keeps its shape: a height, no width forcing it square.
    expect(saved.html).toMatch(new RegExp(`<img src="/assets/${assetId}" alt="Current logo" height="48">`));
  });

  it('does not carry a refused logo, nor a pending one that is not an uploaded image’s bytes', async () => {
    const owner = await signedIn(acmeOwner);
    const bad = await owner.postMultipart(
      '/console/links/new',
      multipart(editorForm({ slug: 'bad-logo' }), { name: 'x.svg', type: 'image/svg+xml', bytes: 'plain text' }),
    );
    expect(bad.status).toBe(422);
    expect(bad.html).not.toContain('name="pending_logo"');
    const path = await owner.postMultipart('/console/links/new', multipart(editorForm({ slug: 'path-logo', pending_logo: '/etc/hostname' })));
    expect(path.status).toBe(303);
    expect((await linkRow('path-logo'))!.logoAssetId).toBeNull();
  });

  it('reads the expiry picker’s time in the posted time zone and stores it as UTC; shows it in UTC until the browser names its zone', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.post('/console/links/new', editorForm({ slug: 'expiry-zone', expires_at: '2027-01-31T23:59', time_zone: 'Asia/Manila' }));
    expect(res.status).toBe(303);
    expect((await linkRow('expiry-zone'))!.expiresAt?.toISOString()).toBe('2027-01-31T15:59:00.000Z');
    const page = await owner.get('/console/links/expiry-zone');
    expect(page.html).toMatch(
      /id="field-expires_at" name="expires_at" type="datetime-local" value="2027-01-31T15:59" step="60" data-utc="2027-01-31T15:59:00.000Z"/,
    );
    expect(page.html).toContain('name="time_zone" value="UTC"');
    const unknown = await owner.post('/console/links/expiry-zone', editorForm({ expires_at: '2027-01-31T23:59', time_zone: 'Mars/Olympus' }));
    expect(unknown.status).toBe(422);
    expect(textOf(unknown.html)).toContain('Expires at cannot be read: the time zone "Mars/Olympus" is not known');
  });

  it('offers the currencies the acquirer takes by name, the link’s own chosen', async () => {
    const owner = await signedIn(acmeOwner);
    const page = await owner.get('/console/links/acme-books');
    expect(page.html).toMatch(/<select id="field-currency" name="currency" required/);
    expect(page.html).toContain('<option value="PHP" selected>Philippine Peso (PHP)</option>');
    expect(page.html).toContain('<option value="USD">US Dollar (USD)</option>');
  });

  it('shows a refusal of the links editor itself beside the form’s input, named as the form names it', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.post('/console/links/acme-books', editorForm({ amount_mode: 'open', amount: '', min_amount: '900', max_amount: '100' }));
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain('must not be above max_amount');
    expect(res.html).toMatch(/id="field-min_amount"[^>]*aria-invalid="true"/);
    expect((await linkRow('acme-books'))!.minAmountMinor).toBeNull();
  });
});

describe('console › link pages are the owner’s own', () => {
  it('shows staff the links with their address, Copy and QR code, but no editor: creating, changing and previewing are 404 and change nothing', async () => {
    const staff = await signedIn(acmeStaff);
    const csrf = await staff.csrf('/console/account');
    const list = await staff.get('/console/links');
    expect(list.status).toBe(200);
    expect(list.html).toContain('href="/console/links/acme-books"');
    expect(list.html).not.toContain('href="/console/links/new"');
    const one = await staff.get('/console/links/acme-books');
    expect(one.status).toBe(200);
    expect(one.html).toContain('/pay/acme-books/qr.svg');
    expect(one.html).toMatch(/\/pay\/acme-books/);
    expect(textOf(one.html)).toContain('Only an owner of this account can change it.');
    expect(one.html).not.toContain('name="title"');
    const created = await staff.get('/console/links/new');
    expect(created.status).toBe(404);
    expect(textOf(created.html)).toContain('Page not found');
    expect((await staff.post('/console/links/acme-books', editorForm({ _csrf: csrf, title: 'By staff' }))).status).toBe(404);
    expect((await staff.post('/console/links/new', editorForm({ _csrf: csrf, slug: 'by-staff' }))).status).toBe(404);
    expect((await staff.post('/console/links/preview', editorForm({ _csrf: csrf }))).status).toBe(404);
    expect((await linkRow('acme-books'))!.title).toBe('Acme Books');
    expect(await linkRow('by-staff')).toBeUndefined();
    expect((await staff.get('/console')).html).toContain('href="/console/links"');
  });

  it('answers 404 for another integrator’s link, GET and POST, and changes nothing', async () => {
    const other = await signedIn(otherOwner);
    const csrf = await other.csrf('/console/links');
    expect((await other.get('/console/links/acme-books')).status).toBe(404);
    const post = await other.post('/console/links/acme-books', editorForm({ _csrf: csrf, title: 'Taken over' }));
    expect(post.status).toBe(404);
    expect((await other.post('/console/links/preview', editorForm({ _csrf: csrf, current_slug: 'acme-books' }))).status).toBe(404);
    expect((await linkRow('acme-books'))!.title).toBe('Acme Books');
    expect(textOf((await other.get('/console/links')).html)).not.toContain('acme-books');
  });

  it('refuses a save with a missing or foreign CSRF token or from another origin (403), and changes nothing', async () => {
    const owner = await signedIn(acmeOwner);
    const other = await signedIn(otherOwner);
    const path = '/console/links/acme-books';
    for (const res of [
      await owner.post(path, editorForm({ _csrf: '', title: 'Forged' })),
      await owner.post(path, editorForm({ _csrf: await other.csrf('/console'), title: 'Forged' })),
      await owner.post(path, editorForm({ title: 'Forged' }), { headers: { origin: 'https://evil.example' } }),
      await owner.post('/console/links/new', editorForm({ _csrf: 'forged', slug: 'forged' })),
    ]) {
      expect(res.status).toBe(403);
      expect(textOf(res.html)).toContain('This form was refused');
    }
    expect((await linkRow('acme-books'))!.title).toBe('Acme Books');
    expect(await linkRow('forged')).toBeUndefined();
  });
});

describe('console › live preview', () => {
  it('renders the draft as its payment page (no script, framable only by paylink) and writes nothing', async () => {
    const owner = await signedIn(acmeOwner);
    const before = await tableCounts();
    const res = await owner.postMultipart(
      '/console/links/preview',
      multipart(
        { ...editorForm({ title: 'Draft title', brand_color: '#0f766e', 'label.customer.first_name': 'Your name' }), current_slug: 'acme-books' },
        {
          name: 'logo.svg',
          type: 'image/svg+xml',
          bytes: SVG_WITH_SCRIPT,
        },
      ),
      { from: '/console/links/acme-books' },
    );
    expect(res.status).toBe(200);
    const text = textOf(res.html);
    expect(text).toContain('Preview: not saved, takes no payments.');
    expect(text).toContain('Draft title');
    expect(text).toContain('Pay ₱1,200.00');
    expect(text).toContain('Your name');
    expect(res.html).toContain(':root{--brand:#0f766e;');
    expect(res.html).not.toMatch(/<script/i);
    // The Pay button looks as customers see it; the editor's frame is sandboxed without forms, so it takes nothing.
    expect(res.html).toMatch(/<button type="submit" class="pay">/);
    // The unsaved logo is shown from the draft, sanitised: no script survives.
    const logo = /<img src="data:image\/svg\+xml;base64,([^"]+)"/.exec(res.html)?.[1];
    expect(Buffer.from(logo!, 'base64').toString()).not.toContain('script');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(await tableCounts()).toEqual(before);
    expect((await linkRow('acme-books'))!.title).toBe('Acme Books');
  });

  it('shows a setting it cannot read as the page would show its absence (an unreadable amount: the customer enters one)', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.post('/console/links/preview', editorForm({ amount: 'twelve' }), { from: '/console/links/new' });
    expect(res.status).toBe(200);
    expect(textOf(res.html)).toContain('Amount In PHP');
  });

  it('says when customers could not pay the draft at its address: inactive, or system fields (dynamic links only)', async () => {
    const owner = await signedIn(acmeOwner);
    const { active: _, ...inactive } = editorForm();
    const res = await owner.post('/console/links/preview', { ...inactive, 'mode.customer.contact.email': 'system' }, { from: '/console/links/new' });
    const text = textOf(res.html);
    expect(text).toContain('Inactive: customers see “not found” at this address.');
    expect(text).toContain('customers pay only through dynamic links');
    const plain = textOf((await owner.post('/console/links/preview', editorForm(), { from: '/console/links/new' })).html);
    expect(plain).not.toContain('Inactive');
    expect(plain).not.toContain('dynamic links');
  });

  it('needs a session (sign-in redirect) and the CSRF token (403); a GET draws nothing', async () => {
    const anonymous = new ConsoleClient(served.server.url);
    const res = await fetch(`${served.server.url}/console/links/preview`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: served.server.url },
      body: new URLSearchParams(editorForm()),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/sign-in');
    expect(anonymous.cookies.size).toBe(0);
    const owner = await signedIn(acmeOwner);
    expect((await owner.post('/console/links/preview', editorForm({ _csrf: 'forged' }))).status).toBe(403);
    expect((await owner.get('/console/links/preview')).status).toBe(405);
  });
});

describe('console › link pages’ weight and CSP', () => {
  it(`loads at most ${CONSOLE_JS_BUDGET / 1024} KB of JavaScript (gzip) on the editor, every inline script allowed by its hash`, async () => {
    const owner = await signedIn(acmeOwner);
    for (const path of ['/console/links/acme-books', '/console/links/new']) {
      const page = await owner.get(path);
      const weight = await measurePageScripts(served.server.url, page.html);
      console.info(
        `${path} JS: ${weight.totalGzip} B gzip in ${weight.scripts.length} scripts: ${weight.scripts.map((s) => `${s.name} ${s.gzip}`).join(', ')}`,
      );
      expect(weight.scripts.some((s) => s.name.includes('LinkPreview'))).toBe(true);
      expect(weight.totalGzip).toBeLessThanOrEqual(CONSOLE_JS_BUDGET);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("'unsafe-inline'");
      for (const hash of weight.inlineScriptHashes) expect(csp).toContain(`'${hash}'`);
    }
    // A page without an island loads no script file: only the menu's one inline line (it scrolls the current tab into view), allowed by its hash.
    const list = await owner.get('/console/links');
    const listWeight = await measurePageScripts(served.server.url, list.html);
    expect(listWeight.scripts.map((s) => s.name)).toEqual(['inline #1']);
    expect(listWeight.totalGzip).toBeLessThanOrEqual(200);
    expect(list.headers.get('content-security-policy')).toContain(`'${listWeight.inlineScriptHashes[0]}'`);
  });
});
