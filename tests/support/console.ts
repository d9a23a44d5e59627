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

  signIn(email: string, password: string) {
    return this.post('/console/sign-in', { email, password });
  }
}

/** The text of an HTML page without tags, whitespace folded (for readable assertions). */
export const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
