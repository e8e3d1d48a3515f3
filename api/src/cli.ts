// Operations from the command line: npm run cli -- <command> [arguments] (the commands are in cli-commands.ts).
import { runCli } from './cli-commands';

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exit(code);
