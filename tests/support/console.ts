/**
 * A browser-like client for the console over HTTP: keeps cookies, scrapes the CSRF token from
 * the page it posts from and sends the Origin a browser would.
 */
export class ConsoleClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    readonly opts: { origin?: string; userAgent?: string } = {},
  ) {}

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join('='));
    }
  }

  async get(path: string): Promise<{ status: number; html: string; location: string | null; headers: Headers }> {
    const res = await fetch(this.base + path, {
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), 'user-agent': this.opts.userAgent ?? 'console-test' },
    });
    this.keep(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
  }

  /** The CSRF token of the forms on `path`. */
  async csrf(path: string): Promise<string> {
    const page = await this.get(path);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1];
    if (!token) throw new Error(`no CSRF token on ${path} (status ${page.status})`);
    return token;
  }

  /** POSTs a form as a browser would from `from` (default: the same page), CSRF token included unless given. */
  async post(path: string, fields: Record<string, string>, opts: { from?: string; headers?: Record<string, string> } = {}) {
    const body = new URLSearchParams({ _csrf: fields._csrf ?? (await this.csrf(opts.from ?? path)), ...fields });
    const res = await fetch(this.base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        origin: this.opts.origin ?? this.base,
        'user-agent': this.opts.userAgent ?? 'console-test',
        ...opts.headers,
      },
      body,
    });
    this.keep(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
  }

  /** POSTs a multipart form (as a form with a file input is sent), CSRF token from `from` unless given. */
  async postMultipart(path: string, form: FormData, opts: { from?: string } = {}) {
    if (!form.has('_csrf')) form.set('_csrf', await this.csrf(opts.from ?? path));
    const res = await fetch(this.base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), origin: this.opts.origin ?? this.base, 'user-agent': this.opts.userAgent ?? 'console-test' },
      body: form,
    });
    this.keep(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
  }

  /**
   * A form whose action asks first (src/console/confirm.ts): POSTs it, and when the page answers
   * with its confirm step, POSTs that step's own form as its confirm button does. A refusal of
   * the first POST (no confirm step) is returned as it is.
   */
  async postConfirmed(path: string, fields: Record<string, string>, opts: { from?: string } = {}) {
    const asked = await this.post(path, fields, opts);
    const step = confirmStepFields(asked.html);
    if (asked.status !== 200 || !step) return asked;
    return this.post(path, { ...step, confirmed: 'yes' });
  }

  signIn(email: string, password: string) {
    return this.post('/console/sign-in', { email, password });
  }
}

/** The hidden fields of a page's confirm step (undefined when it shows none), CSRF token included. */
export function confirmStepFields(html: string): Record<string, string> | undefined {
  const step = /data-testid="confirm-step"[\s\S]*?<form[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (!step) return undefined;
  const decode = (v: string) =>
    v
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const fields: Record<string, string> = {};
  for (const input of step.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[input[1]!] = decode(input[2]!);
  return fields;
}

/** The text of an HTML page without tags, whitespace folded (for readable assertions). */
export const textOf = (html: string) =>
  html
    // What a reader sees: no script's source, and a line-break opportunity (<wbr>) is no space.
    .replace(/<script\b[\s\S]*?<\/script>/g, ' ')
    .replace(/<wbr\s*\/?>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
