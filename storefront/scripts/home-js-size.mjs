// After a build: the JavaScript the home page loads before it can show (the entry chunk and its static imports,
// from dist/.vite/manifest.json), raw and gzip. Usage: node storefront/scripts/home-js-size.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(entry);

let raw = 0;
let gzip = 0;
for (const file of files) {
  const code = readFileSync(path.join(dist, file));
  const zipped = gzipSync(code, { level: 9 }).length;
  raw += code.length;
  gzip += zipped;
  console.log(`${file}  ${(code.length / 1024).toFixed(1)} KiB raw  ${(zipped / 1024).toFixed(1)} KiB gzip`);
}
console.log(
  `home page initial JS: ${files.size} file(s), ${(raw / 1024).toFixed(1)} KiB raw, ${(gzip / 1024).toFixed(1)} KiB gzip (${gzip} bytes)`,
);
