// Operations from the command line: npm run cli -- <command> [arguments]
import { parseArgs } from 'node:util';
import { SYSTEM_ACTOR } from './audit/record';
import { systemClock } from './clock';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/open';
import { ROLES, type Role } from './identity/roles';
import { EmailAddress } from './identity/schemas';
import { createLogger } from './logger';
import { createServices } from './services';

const USAGE = `Usage: npm run cli -- <command>

  login-link <email> [--redirect <path>]   print a one-time sign-in link (15 minutes)
  grant-role <email> <role>                give a role (creates the account if needed)
  revoke-role <email> <role>               take a role away

Roles: ${ROLES.join(', ')}. Uses DATABASE_URL, else the embedded database.`;

class UsageError extends Error {}

function parseEmail(value: string | undefined): string {
  const parsed = EmailAddress.safeParse(value ?? '');
  if (!parsed.success) throw new UsageError(`"${value ?? ''}" is not an email address.`);
  return parsed.data;
}

function parseRole(value: string | undefined): Role {
  if (!ROLES.includes(value as Role))
    throw new UsageError(`"${value ?? ''}" is not a role. Roles: ${ROLES.join(', ')}.`);
  return value as Role;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { redirect: { type: 'string' }, help: { type: 'boolean' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', 2);

  // Check the arguments before touching the database.
  const email = parseEmail(rest[0]);
  const role = command === 'login-link' ? undefined : parseRole(rest[1]);
  if (!['login-link', 'grant-role', 'revoke-role'].includes(command))
    throw new UsageError(`Unknown command "${command}".`);

  const database = await openDatabase(config, logger);
  try {
    const services = createServices({ db: database.db, config, logger, clock: systemClock });
    const actor = { ...SYSTEM_ACTOR, email: 'cli' };
    if (command === 'login-link') {
      process.stdout.write(`${await services.emailSignIn.createLink(email, values.redirect ?? '/')}\n`);
    } else if (command === 'grant-role') {
      const user = await services.roles.grant(email, role!, actor);
      process.stdout.write(`${user.email}: ${user.roles.join(', ')}\n`);
    } else {
      const user = await services.roles.revoke(email, role!, actor);
      process.stdout.write(`${user.email}: ${user.roles.join(', ') || '(no roles)'}\n`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n\n${error instanceof UsageError ? USAGE : ''}\n`);
      process.exit(2);
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
