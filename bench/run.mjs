// `npm run bench`: runs the benchmark files (vitest project "bench") and prints one report.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const parts = join(root, 'bench', 'results', 'parts');
rmSync(parts, { recursive: true, force: true });
// The HTTP benchmarks load the built server (dist/paylink/server.mjs), as `npm start` runs it.
if (process.env.PAYLINK_BENCH_SKIP_BUILD !== '1') {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const result = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', '--project', 'bench', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PAYLINK_BENCH: '1' },
});

const lines = [
  '# paylink benchmark report',
  '',
  `${new Date().toISOString()} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · ${Math.round(totalmem() / 2 ** 30)} GiB` +
    ` · PostgreSQL: ${process.env.DATABASE_URL ? 'yes (DATABASE_URL)' : 'not measured (set DATABASE_URL)'}`,
  '',
];
const files = existsSync(parts)
  ? readdirSync(parts)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];
for (const file of files) {
  const { section, rows } = JSON.parse(readFileSync(join(parts, file), 'utf8'));
  lines.push(`## ${section}`, '');
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.values)))];
  lines.push(`| measurement | ${keys.join(' | ')} | note |`, `|---|${keys.map(() => '---:').join('|')}|---|`);
  for (const row of rows) lines.push(`| ${row.name} | ${keys.map((k) => row.values[k] ?? '').join(' | ')} | ${row.note ?? ''} |`);
  lines.push('');
}
const report = lines.join('\n');
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'latest.md'), `${report}\n`);
console.log(`\n${report}`);
process.exit(result.status ?? 1);
