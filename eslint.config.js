// Lint: typescript-eslint's recommended rules, plus the layers of docs/architecture.md §4 as import boundaries,
// so that layers stay apart because a tool says so, not because a reviewer noticed.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** Where zod may be imported: request schemas and answer types, the HTTP edge, the configuration parser. */
const ZOD_EDGE = [
  'api/src/**/schemas.ts',
  'api/src/**/schemas/**/*.ts',
  'api/src/**/*.schemas.ts',
  'api/src/http/**',
  'api/src/config.ts',
];

/** Code whose imports must form no cycle (a cycle makes load order matter and hides which module is the lower one). */
const NO_CYCLE_SOURCES = [
  'api/src/**/*.ts',
  'admin/src/**/*.{ts,tsx}',
  'storefront/src/**/*.{ts,tsx}',
  'seeds/**/*.ts',
  'scripts/**/*.{ts,mjs}',
];

/**
 * api/src's folders as layers, highest first (api/src/layers.json, which tests/unit/domain-graph.test.ts checks
 * against the folders): a folder imports only folders below it, so no two domains need each other. One zone per
 * pair, so the message names both; the imports listed as still upward are let through until they are turned around.
 */
const { layers: LAYERS, upwardStill: UPWARD_STILL } = JSON.parse(
  readFileSync(new URL('./api/src/layers.json', import.meta.url), 'utf8'),
);
const layerZones = [
  ...LAYERS.flatMap((lower, rank) =>
    LAYERS.slice(0, rank)
      .filter((higher) => !Object.hasOwn(UPWARD_STILL, `${lower} -> ${higher}`))
      .map((higher) => ({
        target: `api/src/${lower}`,
        from: `api/src/${higher}`,
        message:
          `api/src/${lower} sits below api/src/${higher} in the layers of api/src/layers.json, so it may not import it: ` +
          `move the shared piece down, or have api/src/services.ts hand ${lower} a callback into ${higher}.`,
      })),
  ),
  {
    target: LAYERS.map((layer) => `api/src/${layer}`),
    from: 'seeds',
    message: 'Seeds build on the domains: only the composition root (api/src/server.ts, migrate.ts) runs them.',
  },
];

/** Route files: parse, call one service, shape the answer. */
const ROUTES = ['api/src/**/routes.ts', 'api/src/**/*-routes.ts'];

/** The HTTP layer: the only API code that may know Koa (identity/http/ reads who is calling and checks policies). */
const HTTP_LAYER = [
  ...ROUTES,
  'api/src/http/**',
  'api/src/identity/http/**',
  'api/src/web/**',
  'api/src/app.ts',
  'api/src/server.ts',
];

const zodOnlyAtTheEdge = {
  name: 'zod',
  message: 'zod belongs at the edge: put the schema in the domain’s schemas.ts and parse it in the route.',
  allowTypeImports: true,
};

const koaOnlyInTheHttpLayer = ['koa', '@koa/router', 'koa-*', '@koa/*'].map((group) => ({
  group: [group],
  message: 'Services never see Koa: the route reads the request and passes plain values.',
}));

/**
 * Services never import the HTTP edge (errors are shared/errors.ts, who-may-what identity/access-policy.ts). The CSV
 * writers and the JSON depth guard sit in http/ but know no request: exports and list queries use them.
 */
const noHttpInServices = [
  {
    regex: '(^|/)http/(?!(csv|csv-columns|json-depth)$)',
    message: 'Services never import the HTTP layer: raise an AppError from shared/errors and let the route answer.',
  },
];

const noDatabaseInRoutes = [
  { group: ['knex'], message: 'Routes never touch the database: call a service.' },
  {
    group: ['**/models', '**/db/*', '**/*-queries', '**/queries'],
    message: 'Routes never touch models: call a service.',
  },
];

const noFocusedOrSkippedTests = [
  {
    selector: 'CallExpression[callee.property.name="only"][callee.object.name=/^(it|describe|test)$/]',
    message: 'A focused test skips the rest of the suite.',
  },
  {
    selector: 'CallExpression[callee.property.name="skip"][callee.object.name=/^(it|describe|test)$/]',
    message: 'No skipped tests: fix or delete it.',
  },
];

/** A purchase's statuses, as api/src/shared/purchase-status.ts lists them (a unit test checks each is known here). */
const PURCHASE_STATUS_NAMES = ['Valid', 'Restricted', 'Refunded', 'Disputed', 'Banned', 'Revoked'];

/**
 * A list of purchase statuses written out again (`['Valid', 'Restricted']`) is a second statement of a rule that
 * api/src/shared/purchase-status.ts states once; when the rule changes the copy does not. An array whose elements
 * are all status strings is refused; the named lists there (GRANTING_STATUSES …) are the way.
 */
const STATUS = `(${PURCHASE_STATUS_NAMES.join('|')})`;
const noPurchaseStatusLists = [
  {
    selector: `ArrayExpression[elements.length>0]:not(:has(> :not(Literal[value=/^${STATUS}$/])))`,
    message: 'A list of purchase statuses written out: use (or add) a named list in api/src/shared/purchase-status.ts.',
  },
  {
    // The same list in SQL text: `status IN ('Valid', 'Restricted')`.
    selector: `:matches(TemplateElement[value.raw=/'${STATUS}',\\s*'${STATUS}'/], Literal[value=/'${STATUS}',\\s*'${STATUS}'/])`,
    message:
      'A list of purchase statuses written out in SQL: bind a named list of api/src/shared/purchase-status.ts instead.',
  },
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**', 'bench-results/**', 'test-artifacts/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-unexpected-multiline': 'off', // Prettier decides line breaks (as eslint-config-prettier would turn off)
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      'no-restricted-syntax': ['error', ...noFocusedOrSkippedTests],
    },
  },
  {
    // Tests write statuses out on purpose (what they expect), landed migrations keep the lists they ran with.
    files: ['api/src/**/*.ts', 'admin/src/**/*.{ts,tsx}', 'storefront/src/**/*.{ts,tsx}', 'seeds/**/*.ts'],
    ignores: ['api/src/shared/**'],
    rules: { 'no-restricted-syntax': ['error', ...noFocusedOrSkippedTests, ...noPurchaseStatusLists] },
  },
  {
    files: NO_CYCLE_SOURCES,
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'admin/tsconfig.json', 'storefront/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    // Type imports count too: a cycle of types still says two modules each need the other.
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['api/src/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }] },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['api/src/**/*.ts'],
    ignores: ZOD_EDGE,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [zodOnlyAtTheEdge], patterns: [...koaOnlyInTheHttpLayer, ...noHttpInServices] },
      ],
    },
  },
  {
    files: HTTP_LAYER,
    ignores: ZOD_EDGE,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [zodOnlyAtTheEdge] }] },
  },
  {
    files: ROUTES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [zodOnlyAtTheEdge], patterns: noDatabaseInRoutes },
      ],
    },
  },
  {
    files: ['admin/src/**/*.{ts,tsx}', 'storefront/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              ...zodOnlyAtTheEdge,
              message: 'The apps take request and answer types from the API’s contract with import type.',
            },
          ],
          patterns: [
            {
              regex: '(^|/)api/src/(?!shared/)|^@contract/',
              allowTypeImports: true,
              message:
                'The apps import only types from the API (import type), so nothing of the server lands in a bundle.',
            },
          ],
        },
      ],
    },
  },
);
