import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe on the page as it stands: no violation, listed by rule and element when there are. `exclude`: a selector axe leaves out. */
export async function expectNoAxeViolations(page: Page, opts: { exclude?: string } = {}): Promise<void> {
  const builder = new AxeBuilder({ page });
  const results = await (opts.exclude ? builder.exclude(opts.exclude) : builder).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
