import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Comments and the README name the rules they keep as `docs/domain.md §5.3`: every such reference must lead to a
// file in docs/ and a numbered heading in it, and nothing may name a document the repository does not hold.
const root = path.resolve(import.meta.dirname, '../..');
const SELF = path.relative(root, import.meta.filename);

const ROOTS = ['api', 'admin/src', 'storefront/src', 'seeds', 'scripts', 'tests', 'docs'];
const FILES = ['README.md', 'eslint.config.js', '.ci/run'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|jsx|md|json|css|html|sql|sh|ya?ml)$/;

/** Names of documents that live outside the repository, and the bare section mark that named one of them. */
const OUTSIDE: [RegExp, string][] = [
  [/\bDOMAIN\.md\b/, 'DOMAIN.md'],
  [/\bARCHITECTURE\.md\b/, 'ARCHITECTURE.md'],
  [/\bDOMAIN\s*§/, 'a bare DOMAIN §'],
];
/** `docs/<file>.md` and the sections after it: `§5`, `§5.3, §7`, `§4–§9`. */
const REFERENCE = /\bdocs\/([\w./-]+?\.md)((?:\s*(?:,|–|-|and)?\s*§\s?\d+(?:\.\d+)*)*)/g;

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* walk(rel);
    } else if (TEXT.test(entry.name)) yield rel;
  }
}

/** The section numbers a document's headings give (`## 5. Pricing`, `### 5.3 Upgrade credit`). */
function sectionsOf(doc: string): Set<string> {
  const text = readFileSync(path.join(root, 'docs', doc), 'utf8');
  return new Set([...text.matchAll(/^#{1,6}\s+(\d+(?:\.\d+)*)[.\s]/gm)].map((m) => m[1]!));
}

/** What is wrong with the references in one file's text, as `line: problem`. */
function referenceProblems(text: string, sections: (doc: string) => Set<string> | null): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [pattern, name] of OUTSIDE) {
      if (pattern.test(line)) problems.push(`${i + 1}: names ${name}, which is not in the repository`);
    }
    for (const [, doc, marks] of line.matchAll(REFERENCE)) {
      const known = sections(doc!);
      if (!known) {
        problems.push(`${i + 1}: docs/${doc} does not exist`);
        continue;
      }
      for (const [, section] of marks!.matchAll(/§\s?(\d+(?:\.\d+)*)/g)) {
        if (!known.has(section!)) problems.push(`${i + 1}: docs/${doc} has no section ${section}`);
      }
    }
  });
  return problems;
}

const docSections = new Map<string, Set<string> | null>();
const repositoryDocs = (doc: string) => {
  if (!docSections.has(doc)) {
    const file = path.join(root, 'docs', doc);
    docSections.set(doc, existsSync(file) && statSync(file).isFile() ? sectionsOf(doc) : null);
  }
  return docSections.get(doc)!;
};

/** The documents a reader follows: every file in docs/ and the README. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];
const TOP_FOLDERS = /^(api|admin|storefront|tests|scripts|seeds|migrations|docs|\.ci)\//;
/** Documents name API files from api/src (`commerce/checkout/checkout.ts`) and app files from their src/. */
const PATH_BASES = ['', 'api/src/', 'admin/src/', 'storefront/src/'];

/**
 * Paths a document names in code spans that lead nowhere: a file (`api/src/app.ts`, `http/auth.ts`) or a
 * top-level folder (`tests/unit/`). Placeholders (`<resource>`, `*`, `HHmmss`), URLs and runtime folders are not paths.
 */
function missingPaths(text: string, exists: (rel: string) => boolean): string[] {
  const named = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!.replace(/[:,.;)]+$/, ''));
  const paths = named.filter(
    (token) =>
      token.includes('/') &&
      !/[<>*{}…:]|HHmm|^\//.test(token) &&
      (/\.(ts|tsx|mjs|js|json|md|ya?ml)$/.test(token) || (token.endsWith('/') && TOP_FOLDERS.test(token))),
  );
  return [...new Set(paths)].filter((rel) => !PATH_BASES.some((base) => exists(base + rel)));
}

describe('references to the documents', () => {
  it('name only docs/ files and sections that exist, never a document kept outside the repository', () => {
    const files = [...ROOTS.flatMap((dir) => [...walk(dir)]), ...FILES].filter((file) => file !== SELF);
    expect(files.length).toBeGreaterThan(500);
    const problems = files.flatMap((file) =>
      referenceProblems(readFileSync(path.join(root, file), 'utf8'), repositoryDocs).map((p) => `${file}:${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('are read the way the check above reads them', () => {
    const docs = (doc: string) => (doc === 'domain.md' ? new Set(['4', '5', '5.3', '7', '9']) : null);
    expect(referenceProblems('// the credit (docs/domain.md §5.3) and seats (docs/domain.md §2, §7)', docs)).toEqual([
      '1: docs/domain.md has no section 2',
    ]);
    expect(referenceProblems('/** A model (docs/domain.md §4–§9). */\n// see docs/rules.md §1', docs)).toEqual([
      '2: docs/rules.md does not exist',
    ]);
    expect(referenceProblems(`// as DOMAIN.md says\n// (DOMAIN §7)\n// ARCHITECTURE.md`, docs)).toHaveLength(3);
  });

  it('name only paths that exist, in every document', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['README.md', 'docs/domain.md', 'docs/architecture.md']));
    const exists = (rel: string) => existsSync(path.join(root, rel));
    const problems = DOCUMENTS.flatMap((doc) =>
      missingPaths(readFileSync(path.join(root, doc), 'utf8'), exists).map((p) => `${doc}: ${p} does not exist`),
    );
    expect(problems).toEqual([]);
  });

  it('read a path in a document the way the check above reads it', () => {
    const exists = (rel: string) =>
      ['api/src/app.ts', 'api/src/http/auth.ts', 'tests/unit'].includes(rel.replace(/\/$/, ''));
    const text =
      'See `api/src/app.ts`, `http/auth.ts`, `tests/unit/`, `api/src/gone.ts`, `migrations/YYYYMMDDHHmmss_x.ts`, ' +
      '`/api/admin/<resource>`, `uploads/` and `https://example.com/a.md`.';
    expect(missingPaths(text, exists)).toEqual(['api/src/gone.ts']);
  });

  it('point at headings the documents really have', () => {
    expect([...repositoryDocs('domain.md')!]).toEqual(expect.arrayContaining(['2', '5.3', '5.5', '7', '11']));
  });
});
