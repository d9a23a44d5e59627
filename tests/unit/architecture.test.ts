import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkUpdateSchema } from '../../src/schemas/link.ts';

/**
 * The layer map (docs/architecture.md), checked on every run: each rule lists the imports that
 * break it as `file → import`, so a leak names its file.
 */
const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

interface Import {
  file: string;
  /** Resolved path relative to the repository (`src/db/schema.ts`), or the package name. */
  target: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|astro)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const IMPORT = /(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const imports: Import[] = sourceFiles(src).flatMap((path) => {
  const text = readFileSync(path, 'utf8');
  const file = relative(root, path);
  return [...text.matchAll(IMPORT)].map((m) => {
    const spec = m[3] ?? m[4] ?? '';
    const target = spec.startsWith('.') ? relative(root, resolve(dirname(path), spec)) : spec;
    return { file, target, typeOnly: Boolean(m[2]) };
  });
});

const under = (dir: string) => (path: string) => path.startsWith(`src/${dir}/`) || path === `src/${dir}`;
const violations = (from: (file: string) => boolean, forbidden: (i: Import) => boolean) =>
  imports.filter((i) => from(i.file) && forbidden(i)).map((i) => `${i.file} → ${i.target}`);

describe('architecture › the layer map holds', () => {
  it('reads the imports of every source file', () => {
    expect(imports.length).toBeGreaterThan(300);
    expect(imports).toContainEqual({ file: 'src/domain/refunds/reserve.ts', target: 'src/db/schema.ts', typeOnly: false });
  });

  it('the domain knows nothing of HTTP, Astro, the API layer, pages or workers', () => {
    const outer = ['api', 'pages', 'http', 'workers', 'components', 'layouts'].map(under);
    expect(violations(under('domain'), (i) => outer.some((o) => o(i.target)) || i.target.startsWith('astro'))).toEqual([]);
  });

  it('the domain depends on the context it defines, never on the app (not even for a type)', () => {
    expect(violations(under('domain'), (i) => i.target === 'src/app.ts')).toEqual([]);
  });

  it('the domain context imports nothing from the API layer, pages or the app', () => {
    const context = 'src/domain/context.ts';
    expect(imports.some((i) => i.file === context)).toBe(true);
    expect(
      violations(
        (file) => file === context,
        (i) => under('api')(i.target) || under('pages')(i.target) || i.target === 'src/app.ts',
      ),
    ).toEqual([]);
  });

  it('schemas import only schemas, zod and the phone-number library, so islands can share them', () => {
    expect(violations(under('schemas'), (i) => !under('schemas')(i.target) && !/^(zod|libphonenumber-js)(\/|$)/.test(i.target))).toEqual([]);
  });

  it('islands import only schemas and preact', () => {
    const islands = (file: string) => file.startsWith('src/components/') && file.endsWith('.tsx');
    expect(violations(islands, (i) => !under('schemas')(i.target) && !under('components')(i.target) && !/^preact(\/|$)/.test(i.target))).toEqual([]);
  });

  it('pages, components and layouts reach the database only through the domain', () => {
    const front = (file: string) => ['pages', 'components', 'layouts'].some((d) => under(d)(file));
    expect(violations(front, (i) => under('db')(i.target) && !i.typeOnly)).toEqual([]);
  });

  it('the API layer never imports routes, workers or components', () => {
    expect(violations(under('api'), (i) => ['pages', 'workers', 'components'].some((d) => under(d)(i.target)))).toEqual([]);
  });

  it('adapters (acquirer, outbound HTTP) and the database layer import no business rules', () => {
    const adapters = (file: string) => ['acquirer', 'outbound', 'db'].some((d) => under(d)(file));
    expect(violations(adapters, (i) => ['domain', 'api', 'pages', 'workers'].some((d) => under(d)(i.target)))).toEqual([]);
  });

  it('the status-code catalogue is a leaf module', () => {
    expect(
      violations(
        (file) => file === 'src/status-codes.ts',
        () => true,
      ),
    ).toEqual([]);
  });
});

/** Every source file with its text, for rules about what code does rather than what it imports. */
const sources = sourceFiles(src).map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }));
const matches = (files: typeof sources, pattern: RegExp) =>
  files.flatMap(({ file, text }) => [...text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))].map((m) => `${file}: ${m[0]}`));

describe('architecture › one way to reach an acquirer', () => {
  const outsideAcquirer = sources.filter((s) => !under('acquirer')(s.file));

  it('no module outside src/acquirer names the sandbox connector or compares a connector with it', () => {
    expect(matches(outsideAcquirer, /\bconnectors\s*\.\s*sandbox\b|\.name\s*[!=]==?\s*['"]sandbox['"]|['"]sandbox['"]\s*[!=]==?\s*\w+\.name\b/)).toEqual([]);
  });

  it('the app has no acquirer beside its connectors: the sandbox is reached as a connector', () => {
    expect(matches(outsideAcquirer, /\bapp\s*\.\s*acquirer\b/)).toEqual([]);
    // The app's interface and the domain context it extends: connectors, and no acquirer beside them.
    const body = (file: string, name: string) => {
      const text = sources.find((s) => s.file === file)!.text;
      const start = text.indexOf(`export interface ${name}`);
      return text.slice(start, text.indexOf('\n}\n', start));
    };
    const interfaces = [body('src/app.ts', 'PaylinkApp'), body('src/domain/context.ts', 'DomainContext')];
    expect(interfaces.join('\n')).toContain('connectors: ConnectorRegistry');
    for (const members of interfaces) expect(members).not.toMatch(/^\s+acquirer\??:/m);
  });

  it('only the app builds the sandbox: no other module imports the sandbox acquirer or connector', () => {
    expect(
      violations(
        (file) => file !== 'src/app.ts' && !under('acquirer')(file),
        (i) => !i.typeOnly && /^src\/acquirer\/sandbox(-connector)?\.ts$/.test(i.target),
      ),
    ).toEqual([]);
  });
});

describe('architecture › links are written only through the links editor', () => {
  /** Drizzle's builders on the links table, and SQL written by hand that changes it. */
  const LINK_WRITE =
    /\.\s*(insert|update|delete)\(\s*links\s*\)|\b(insert\s+into|update|delete\s+from)\s+(\$\{\s*links\s*\}|"?links"?\s+(set|where|values)\b|"?links"?\s*\()/i;

  it('the pattern sees each way of writing the links table', () => {
    const written = ['tx.insert(links).values(v)', 'db.update( links ).set(v)', `sql\`update \${links} set title = 1\``, 'insert into links (id) values (1)'];
    expect(written.filter((code) => LINK_WRITE.test(code))).toEqual(written);
    expect(['tx.select().from(links)', 'the update links the two', 'insert(linkKeys)'].filter((code) => LINK_WRITE.test(code))).toEqual([]);
  });

  it('no module but src/domain/links/editor.ts inserts, updates or deletes links (seed and system links included)', () => {
    expect(
      matches(
        sources.filter((s) => s.file !== 'src/domain/links/editor.ts'),
        LINK_WRITE,
      ),
    ).toEqual([]);
  });
});

describe('architecture › the links domain speaks its own names, the wire format stays at the edge', () => {
  /** The API's snake_case setting names (`min_amount`, `brand_color`, …), read from its schema. */
  const wireNames = Object.keys(linkUpdateSchema.shape).filter((name) => name.includes('_'));
  const codeOnly = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

  it('knows the wire names to look for', () => {
    expect(wireNames).toEqual(expect.arrayContaining(['min_amount', 'max_amount', 'brand_color', 'callback_url', 'expires_at']));
  });

  it('no code under src/domain/links names a setting by its API name (comments may)', () => {
    const wire = new RegExp(`\\b(${wireNames.join('|')})\\b`);
    expect(
      matches(
        sources.filter((s) => s.file.startsWith('src/domain/links/')).map((s) => ({ ...s, text: codeOnly(s.text) })),
        wire,
      ),
    ).toEqual([]);
  });
});

describe('architecture › no page maps a domain state to an HTTP status', () => {
  /**
   * What a page can be checked for: a status chosen beside a state's name, either a map from state
   * names to statuses (`{ expired: 410 }[view.state]`) or a comparison that picks one
   * (`state === 'expired' ? 410 : 200`). A bare `status = 404` after a lookup found nothing, and a
   * Response's own `{ status: 405 }`, name no state and stay allowed; the choice lives in src/api
   * (paymentPageStatus in src/api/payment-pages.ts).
   */
  const STATE_TO_STATUS = /\b(?!status\b)[a-z][a-z_]*\s*:\s*[1-5]\d\d\b(?!\s*[a-z%])|\bstate\s*[!=]==?\s*['"][a-z_]+['"]\s*\?\s*[1-5]\d\d\b/;

  it('the pattern sees a state-to-status map and a state comparison that picks a status', () => {
    const chosen = ['{ open: 200, expired: 410 }[view.state]', "view.state === 'expired' ? 410 : 200", "found.state !== 'open' ? 404 : 200"];
    expect(chosen.filter((code) => STATE_TO_STATUS.test(code))).toEqual(chosen);
    const allowed = ['Astro.response.status = 404;', "new Response('x', { status: 405 })", 'paymentPageStatus(view.state)', 'style="width: 200px"'];
    expect(allowed.filter((code) => STATE_TO_STATUS.test(code))).toEqual([]);
  });

  /** Code only: a comment may say which status a page answers (`staff: 404`). */
  const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

  it('no file under src/pages chooses a status from a state', () => {
    expect(
      matches(
        sources.filter((s) => under('pages')(s.file)).map((s) => ({ ...s, text: code(s.text) })),
        STATE_TO_STATUS,
      ),
    ).toEqual([]);
  });
});

describe('architecture › console pages are views', () => {
  const pages = sourceFiles(join(src, 'pages/console'))
    .filter((path) => path.endsWith('.astro'))
    .map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }));
  const frontmatter = (text: string) => /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
  // What only an action or the entry may do: catch a refusal and word it, or read its form to choose an action.
  const HANDLES_A_FORM =
    /\btry\s*\{|\bcatch\b|\bconsoleRefusal\b|\bDomainError\b|\bFormRefused\b|\breadPreSessionForm\b|field\(\s*['"]action['"]\s*\)|===?\s*['"](ER|OK)\.\d\d\.\d\d['"]/;

  it('reads every console page and its frontmatter', () => {
    expect(pages.length).toBeGreaterThan(15);
    for (const page of pages) expect(frontmatter(page.text), page.file).not.toBe('');
  });

  it('no console page frontmatter is over 40 lines: it loads what the view shows', () => {
    const long = pages.map((p) => ({ file: p.file, lines: frontmatter(p.text).split('\n').length })).filter((p) => p.lines > 40);
    expect(long).toEqual([]);
  });

  it('the pattern sees a page that handles its own form', () => {
    expect(HANDLES_A_FORM.test('try {\n  await removeUser(app, identity, id);\n} catch (error) {')).toBe(true);
    expect(HANDLES_A_FORM.test("if (page.field('action') === 'resend') {")).toBe(true);
    expect(HANDLES_A_FORM.test("if (refusal.code === 'ER.02.40') {")).toBe(true);
    expect(HANDLES_A_FORM.test('const view = await openConsole(Astro, { actions: accountActions });')).toBe(false);
  });

  it('no console page dispatches an action or shapes a refusal: src/console does, for every page', () => {
    expect(pages.filter((p) => HANDLES_A_FORM.test(frontmatter(p.text))).map((p) => p.file)).toEqual([]);
  });

  it('console pages and routes open the session only through src/console (never the bare session opener)', () => {
    const bare = /import\s*\{[^}]*\bopenConsole\b[^}]*\}\s*from\s*['"][./]*api\/console\.ts['"]/;
    const routes = sourceFiles(join(src, 'pages/console')).map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }));
    expect(routes.filter((r) => bare.test(r.text)).map((r) => r.file)).toEqual([]);
  });
});

describe('architecture › domain files stay readable', () => {
  it('no file in src/domain is over 400 lines: a longer one is split along its steps', () => {
    const long = sources
      .filter((s) => s.file.startsWith('src/domain/'))
      .map((s) => ({ file: s.file, lines: s.text.split('\n').length - (s.text.endsWith('\n') ? 1 : 0) }))
      .filter((s) => s.lines > 400);
    expect(long).toEqual([]);
  });
});
