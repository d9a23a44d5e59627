import { afterAll, beforeAll, inject } from 'vitest';

/**
 * Setup file of `npm run mutation` only (vitest.mutation.config.ts), after Stryker's own. In the
 * dry run Stryker's setup records which mutants each test reaches, between its beforeEach and
 * afterEach; everything reached outside a test counts as "static", and a static mutant is run
 * with every related test, the module reloaded (about a minute per mutant here). Most of that
 * is not module loading but a file's own beforeAll (the app, the seed, the test server) and the
 * background workers between its tests. This file moves what a test file reaches after its
 * modules are loaded (from its first beforeAll to its last afterAll) to every test of that file,
 * so such a mutant runs with the tests of the files that reach it. What is reached while the
 * file's modules load stays static. Sound: Stryker activates a mutant in its own beforeAll,
 * before the file's, so the code of those hooks (and modules they import) runs mutated.
 */
const key = (name: string) => (inject as (k: string) => unknown)(name);

if (key('mode') === 'dry-run') {
  type Coverage = Record<string, number>;
  type Tree = { static: Coverage; perTest: Record<string, Coverage> };
  const ns = ((globalThis as Record<string, unknown>)[key('globalNamespace') as string] ??= {}) as { mutantCoverage?: Tree };
  const separator = key('testNameSeparator') as string;
  let loaded = new Set<string>();

  beforeAll(() => {
    loaded = new Set(Object.keys(ns.mutantCoverage?.static ?? {}));
  });

  type Task = { type: string; name: string; mode: string; result?: { state?: string }; suite?: Task; file?: { filepath: string }; tasks?: Task[] };
  // Stryker's test id: `<file path>#<suite names and test name joined by the separator>`.
  const testId = (test: Task) => {
    const parts = [test.name];
    for (let s = test.suite; s; s = s.suite) parts.unshift(s.name);
    return `${test.file?.filepath ?? 'unknown.js'}#${parts.join(separator).trim()}`;
  };
  const testsOf = (task: Task): Task[] => (task.type === 'test' ? [task] : (task.tasks ?? []).flatMap(testsOf));

  // Vitest requires a destructuring pattern as the first argument of a hook that takes the suite.
  // biome-ignore lint/correctness/noEmptyPattern: see above
  afterAll(({}, suite) => {
    const coverage = ns.mutantCoverage;
    if (!coverage) return;
    const ran = testsOf(suite as unknown as Task).filter((t) => t.result && t.result.state !== 'skip' && t.mode === 'run');
    if (ran.length === 0) return;
    for (const [id, hits] of Object.entries(coverage.static)) {
      if (loaded.has(id)) continue;
      for (const test of ran) {
        const perTest = (coverage.perTest[testId(test)] ??= {});
        perTest[id] = (perTest[id] ?? 0) + hits;
      }
      delete coverage.static[id];
    }
  });
}
