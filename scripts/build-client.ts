// `npm run client:build`: compiles clients/typescript to its dist/ (the `@paylink/client` package).
import { buildClientPackage, CLIENT_DIR } from './client-package.ts';

const { version } = buildClientPackage();
console.log(`built ${CLIENT_DIR}/dist (@paylink/client ${version}); \`npm pack ./${CLIENT_DIR}\` makes the tarball`);
