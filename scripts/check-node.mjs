// Every npm script starts here: the project needs Node >= 22 (Astro 7, vitest 5, undici 8).
// `npm run` puts node_modules/.bin first on PATH, where the `node` package installs Node 24.
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  console.error(
    `paylink needs Node.js 22 or newer, but this is ${process.version}.\n` +
      'Run it through npm (npm start, npm test): npm puts the Node 24 from the `node` dependency first on PATH.\n' +
      'If you ran `npm ci` with --ignore-scripts, run `npm rebuild node` so that Node 24 is installed.',
  );
  process.exit(1);
}
