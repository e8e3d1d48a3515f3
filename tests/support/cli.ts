import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runCli } from '../../api/src/cli-commands';
import { PROJECT_ROOT } from '../../api/src/config';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const run = promisify(execFile);

/**
 * `npm run cli -- <args>` as an operator types it: npm, then Node compiling the TypeScript as it starts (seconds of
 * CPU each). For what only the process shows: the wiring, the exit code, what reaches stdout and stderr.
 */
export async function npmRunCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: PROJECT_ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CliResult;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * The same command run here, through what the entry runs (runCli) with the same arguments and environment: its
 * checks, messages, exit code and changes, without starting a process.
 */
export async function cliHere(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}
