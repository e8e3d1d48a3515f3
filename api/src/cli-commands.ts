// Operations from the command line: npm run cli -- <command> [arguments]. cli.ts is the entry; runCli here is
// what it runs, with the process's arguments, environment and output (the tests call it with their own).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config';
import { ROLES, type Role } from './shared/roles';
import { EmailAddress } from './identity/schemas';
import type { Actor } from './audit/record';
import type { Services } from './services';
import { AppError } from './shared/errors';
import { videoTypeOf } from './video/keys';
import { isUuid } from './shared/uuid';

const USAGE = `Usage: npm run cli -- <command>

  login-link <email> [--redirect <path>]   print a one-time sign-in link (15 minutes)
  grant-role <email> <role>                give a role (creates the account if needed)
  revoke-role <email> <role>               take a role away
  attach-video <lessonId> <file> [--no-wait]
                                           make a video file the lesson's video and process it here, printing
                                           progress (--no-wait: leave the processing to a running server)
  export-pricing-scenarios                 print the console's saved pricing scenarios as JSON, to keep them in
                                           seeds/pricing-scenarios.json (CI replays them on the demo data)
  issue-earlier-invoices                    issue here the invoices (and credit notes) of charges recorded before
                                           invoices, oldest first, in batches (a server's boot queues the same job)

Roles: ${ROLES.join(', ')}. Uses DATABASE_URL, else the embedded database; videos go to MEDIA_DIR or S3_BUCKET.`;

/** Where a command reads its settings and writes what it says. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

class UsageError extends Error {}

/** A failure the command reports in one line (exit code 1), with no usage text. */
class CommandError extends Error {}

async function videoFile(value: string | undefined): Promise<{ file: string; size: number }> {
  if (!value) throw new UsageError('Name the video file to attach.');
  const file = path.resolve(value);
  const found = await stat(file).catch(() => null);
  if (!found) throw new UsageError(`No file at ${file}.`);
  if (!found.isFile()) throw new UsageError(`${file} is not a file.`);
  return { file, size: found.size };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Stores the file as the lesson's video source and queues its processing (as an upload from the console does),
 * then, unless told not to, processes it in this process, printing progress and how it ended. Ctrl-C stops ffmpeg
 * and leaves the video queued for a server. Exit 0 when ready (or queued with --no-wait), 1 when it failed.
 */
async function attachVideo(
  io: CliIo,
  services: Services,
  actor: Actor,
  lessonId: string,
  { file, size }: { file: string; size: number },
  wait: boolean,
  maxBytes: number,
): Promise<number> {
  if (size === 0) throw new CommandError(`${file} is empty.`);
  if (size > maxBytes) {
    throw new CommandError(
      `${file} is ${megabytes(size)}; the largest allowed is ${megabytes(maxBytes)} (VIDEO_MAX_BYTES).`,
    );
  }
  const { PROCESS_VIDEO_JOB } = await import('./video/process-video');
  const filename = path.basename(file);
  const out = (line: string) => io.stdout(`${line}\n`);
  let video;
  try {
    video = await services.videoAdmin.attachSource(
      { lessonId, filename, contentType: videoTypeOf(filename), size, open: async () => createReadStream(file) },
      { actor, requestId: null },
      { wake: false },
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'not-found') throw new CommandError(error.message);
    throw error;
  }
  out(`Stored ${filename} (${megabytes(size)}) as the video of "${video.lessonTitle}" (video ${video.id}).`);
  if (!wait) {
    out('Queued: a running server processes it; the console shows how it goes.');
    return 0;
  }

  let interrupted = false;
  const stop = () => {
    interrupted = true;
    io.stderr('Stopping ffmpeg; the video stays queued for a server.\n');
    void services.jobs.stop();
  };
  process.once('SIGINT', stop);
  let shown = -1;
  const poll = setInterval(() => {
    services.videoAdmin.getOne(video.id).then(
      (current) => {
        if (current.status === 'processing' && current.progress !== shown) {
          shown = current.progress;
          out(`processing ${current.progress} %`);
        }
      },
      () => undefined,
    );
  }, 500);
  try {
    await services.jobs.runDue(PROCESS_VIDEO_JOB);
  } finally {
    clearInterval(poll);
    process.off('SIGINT', stop);
  }
  const done = await services.videoAdmin.getOne(video.id);
  if (done.status === 'ready') {
    const renditions = done.renditionHeights.map((h) => `${h}p`).join(', ');
    out(
      `ready: ${((done.durationMs ?? 0) / 1000).toFixed(1)} s, ${done.width}x${done.height}, renditions ${renditions}`,
    );
    return 0;
  }
  if (done.status === 'failed') throw new CommandError(`failed: ${done.error}`);
  if (interrupted) {
    io.stderr(`stopped: the video is ${done.status}; a running server processes it.\n`);
    return 130;
  }
  throw new CommandError(`not processed here (${done.status}): a running server retries it.`);
}

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

async function main(argv: string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { redirect: { type: 'string' }, help: { type: 'boolean' }, 'no-wait': { type: 'boolean' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    io.stdout(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const config = loadConfig(io.env);

  // Check the arguments before touching the database.
  const commands = [
    'login-link',
    'grant-role',
    'revoke-role',
    'attach-video',
    'export-pricing-scenarios',
    'issue-earlier-invoices',
  ];
  if (!commands.includes(command)) throw new UsageError(`Unknown command "${command}".`);
  const video = command === 'attach-video';
  if (video && !isUuid(rest[0] ?? '')) throw new UsageError(`"${rest[0] ?? ''}" is not a lesson id.`);
  const source = video ? await videoFile(rest[1]) : undefined;
  const exportScenarios = command === 'export-pricing-scenarios';
  const earlierInvoices = command === 'issue-earlier-invoices';
  const noPerson = video || exportScenarios || earlierInvoices;
  const email = noPerson ? '' : parseEmail(rest[0]);
  const role = command === 'login-link' || noPerson ? undefined : parseRole(rest[1]);

  // The server's modules load only now: usage and argument errors print at once.
  const [{ SYSTEM_ACTOR }, { systemClock }, { openDatabase }, { createLogger }, { createServices }] = await Promise.all(
    [import('./audit/record'), import('./clock'), import('./db/open'), import('./logger'), import('./services')],
  );
  // Its log lines go with its messages, to stderr.
  const logger = createLogger(io.env.LOG_LEVEL ?? 'warn', { write: (line) => io.stderr(line) });
  const database = await openDatabase(config, logger);
  try {
    const services = createServices({ db: database.db, config, logger, clock: systemClock });
    const actor = { ...SYSTEM_ACTOR, email: 'cli' };
    if (exportScenarios) {
      const rows = await database.db('pricingScenarios').orderBy('createdAt').select('name', 'input', 'expected');
      io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    } else if (earlierInvoices) {
      const done = await services.earlierInvoices.issue();
      io.stdout(`Issued ${done.invoices} invoices and ${done.creditNotes} credit notes.\n`);
    } else if (video) {
      return await attachVideo(io, services, actor, rest[0]!, source!, !values['no-wait'], config.VIDEO_MAX_BYTES);
    } else if (command === 'login-link') {
      io.stdout(`${await services.emailSignIn.createLink(email, values.redirect ?? '/')}\n`);
    } else if (command === 'grant-role') {
      const user = await services.roles.grant(email, role!, actor);
      io.stdout(`${user.email}: ${user.roles.join(', ')}\n`);
    } else {
      const user = await services.roles.revoke(email, role!, actor);
      io.stdout(`${user.email}: ${user.roles.join(', ') || '(no roles)'}\n`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

/**
 * Runs one command and resolves with its exit code: 0 done, 1 a failure said in one line, 2 wrong arguments or
 * settings (with the usage). Never exits the process.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await main(argv, io);
  } catch (error) {
    if (error instanceof CommandError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    if (error instanceof UsageError || error instanceof ConfigError) {
      io.stderr(`${error.message}\n\n${error instanceof UsageError ? USAGE : ''}\n`);
      return 2;
    }
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
