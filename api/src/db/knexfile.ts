// For the knex CLI (npm run migrate:make). The server, npm run migrate and the tests migrate through migrateLatest().
import { loadConfig } from '../config';
import { MigrationDirectory } from './migrations';

const config = loadConfig();
const connection = config.DATABASE_URL ?? `postgres://postgres:password@localhost:${config.EMBEDDED_PG_PORT}/learning`;

export default {
  client: 'pg',
  connection,
  migrations: { migrationSource: new MigrationDirectory() },
};
