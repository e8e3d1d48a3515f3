// npm run build: builds the storefront and the console (npm start builds them too when missing or stale).
import { APPS, buildApp } from '../api/src/web/build';

for (const app of APPS) {
  const started = performance.now();
  await buildApp(app);
  console.log(`built ${app} in ${Math.round(performance.now() - started)} ms`);
}
