import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import pg from 'pg';

// count(*) and bigint ids come back as strings by default; every value we keep in them fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
// numeric holds only percentages, numeric(5,4): four decimals round-trip through a JSON number exactly.
// Money is integer cents and never numeric.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));

export type Db = Knex;

export interface PoolOptions {
  min?: number;
  max?: number;
  /** PostgreSQL's statement_timeout for every statement on these connections; 0 or absent: none. */
  statementTimeoutMs?: number;
  /**
   * Through PgBouncer in transaction mode: no named prepared statements (see prepared.ts) and no startup
   * parameters PgBouncer refuses (statement_timeout is then set on the database role instead).
   */
  pgbouncer?: boolean;
  /**
   * Where the driver's own warnings go (a connection attempt refused, say). Whoever ran the query hears of it too, so
   * the server sends them to its log at debug; by default knex prints them, stack and all, to the console.
   */
  log?: (message: string) => void;
}

const mappers = knexSnakeCaseMappers();
const firstLine = (message: unknown) => String(message instanceof Error ? message.message : message).split('\n')[0]!;

export function createDb(connectionString: string, pool: PoolOptions = {}): Db {
  const db = knexFactory({
    client: 'pg',
    connection:
      pool.statementTimeoutMs && !pool.pgbouncer
        ? { connectionString, statement_timeout: pool.statementTimeoutMs }
        : connectionString,
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    acquireConnectionTimeout: 10_000,
    ...(pool.log && {
      // Its first line: knex puts the stack after it.
      log: {
        warn: (m: unknown) => pool.log!(firstLine(m)),
        error: (m: unknown) => pool.log!(firstLine(m)),
        deprecate: (m: unknown) => pool.log!(firstLine(m)),
        debug: () => undefined,
      },
    }),
    wrapIdentifier: mappers.wrapIdentifier,
    // A query that speaks another library's schema (the job queue's) asks for its rows as PostgreSQL names them.
    postProcessResponse: (result, context?: { keepNames?: boolean }) =>
      context?.keepNames ? result : mappers.postProcessResponse(result),
  });
  // Transactions inherit userParams, so prepared() sees the setting inside them too.
  db.userParams = { namedStatements: !pool.pgbouncer };
  return db;
}
