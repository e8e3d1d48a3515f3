// npm start, npm run cli and npm run migrate: `node scripts/run.mjs <server|cli|migrate> [arguments]`. With
// NODE_ENV=production it runs the JavaScript `npm run build` compiled into api/dist (a production install has no
// TypeScript tooling); otherwise the TypeScript sources, through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [entry, ...args] = process.argv.slice(2);
if (!['server', 'cli', 'migrate'].includes(entry ?? '')) {
  process.stderr.write('Usage: node scripts/run.mjs <server|cli|migrate> [arguments]\n');
  process.exit(2);
}

let module;
if (process.env.NODE_ENV === 'production') {
  module = new URL(`../api/dist/${entry}.js`, import.meta.url);
  if (!existsSync(module)) {
    process.stderr.write(
      'No build of the server in api/dist: run `npm run build` first (NODE_ENV=production runs the built JavaScript).\n',
    );
    process.exit(1);
  }
  // Stack traces name the TypeScript lines (the build writes source maps).
  process.setSourceMapsEnabled(true);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  module = new URL(`../api/src/${entry}.ts`, import.meta.url);
}
// The entry reads its arguments as if it had been started itself.
process.argv = [process.argv[0], fileURLToPath(module), ...args];
await import(module.href);
