import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files';

// One persistence style per domain: queries are written with the knex query builder (`trx('tableName')…`), and
// Objection's models only describe tables. The console's generic resources (api/src/admin/) keep Objection, their
// one style; api/src/db/ holds the base model.
const OBJECTION_ALLOWED = ['api/src/admin/', 'api/src/db/'];

/**
 * Files still being turned to knex: the test fails on any other file with an Objection query, and on one of these
 * once it has none, so the list only shrinks.
 */
const OBJECTION_STILL: string[] = [];

/** A model's query (`Model.query(db)`, `resource.model.relatedQuery(…)`) or an instance's (`row.$query()`). */
const MODEL_QUERIES = new Set(['query', 'relatedQuery']);
const INSTANCE_QUERIES = new Set(['$query', '$relatedQuery', '$fetchGraph']);
/** Builder methods only Objection has: a query made through a model held in a variable still shows by them. */
const OBJECTION_ONLY = new Set([
  'findById',
  'findByIds',
  'findOne',
  'patch',
  'patchAndFetch',
  'patchAndFetchById',
  'updateAndFetch',
  'updateAndFetchById',
  'insertAndFetch',
  'insertGraph',
  'insertGraphAndFetch',
  'upsertGraph',
  'upsertGraphAndFetch',
  'withGraphFetched',
  'withGraphJoined',
  'joinRelated',
  'leftJoinRelated',
  'innerJoinRelated',
  'modifiers',
  'resultSize',
  'throwIfNotFound',
  'deleteById',
  'fetchGraph',
  'toKnexQuery',
]);

const ROOT = path.resolve(import.meta.dirname, '../..');
const API = path.join(ROOT, 'api/src');

/** Whether `receiver` names a model class (`User`, `resource.model`): its `.query(` is Objection's. */
function isModel(receiver: ts.Expression): boolean {
  if (ts.isIdentifier(receiver)) return /^[A-Z]/.test(receiver.text);
  return ts.isPropertyAccessExpression(receiver) && receiver.name.text === 'model';
}

/** The Objection query calls in one source, as `line: code`. */
function objectionCalls(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { name, expression: receiver } = node.expression;
      const method = name.text;
      // `router.patch('/path', …)` is Koa's: a patch whose first argument is a string is no query.
      const routeCall = method === 'patch' && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0]);
      if (
        (MODEL_QUERIES.has(method) && isModel(receiver)) ||
        INSTANCE_QUERIES.has(method) ||
        (OBJECTION_ONLY.has(method) && !routeCall)
      ) {
        const { line } = file.getLineAndCharacterOfPosition(name.getStart());
        found.push(`${line + 1}: ${receiver.getText().split('\n')[0]}.${method}(`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The files of api/src (outside the allowed folders) with an Objection query, each with its calls. */
function filesWithObjectionQueries(): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const full of sourceFiles(API)) {
    const relative = path.relative(ROOT, full).split(path.sep).join('/');
    if (OBJECTION_ALLOWED.some((folder) => relative.startsWith(folder))) continue;
    const calls = objectionCalls(relative, readFileSync(full, 'utf8'));
    if (calls.length) result.set(relative, calls);
  }
  return result;
}

describe('one persistence style per domain', () => {
  const found = filesWithObjectionQueries();

  it('finds Objection queries in every form it looks for', () => {
    const calls = objectionCalls(
      'example.ts',
      [
        `await User.query(db).where({ id });`,
        `await resource.model.query(trx);`,
        `await row.$relatedQuery('prices');`,
        `await query.findById(id);`,
        `await db('users').where({ id }).first();`,
        `router.patch('/users/:id', handler);`,
        `await connection.query('SELECT 1');`,
      ].join('\n'),
    );
    expect(calls).toEqual([
      '1: User.query(',
      '2: resource.model.query(',
      '3: row.$relatedQuery(',
      '4: query.findById(',
    ]);
  });

  it('writes queries outside the console with knex, except in files still being turned', () => {
    const unexpected = [...found].filter(([file]) => !OBJECTION_STILL.includes(file));
    expect(Object.fromEntries(unexpected)).toEqual({});
  });

  it('lists only files that still have an Objection query (empty the list as they are turned)', () => {
    expect(OBJECTION_STILL.filter((file) => !found.has(file))).toEqual([]);
  });
});
