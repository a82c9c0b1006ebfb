import path from 'node:path';
import { ConfigError } from '../../config.ts';
import { BackupError } from '../backup.ts';
import { EmbeddedPostgresError } from '../embedded-postgres.ts';

/**
 * Runs a command-line tool. A failure the operator can fix (usage, configuration, a refusal) is
 * one line on standard error and exit code 1, without a stack trace; anything else keeps it.
 */
export async function runCommand(command: () => Promise<void>): Promise<void> {
  try {
    await command();
  } catch (error) {
    if (!isExpected(error)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}

function isExpected(error: unknown): error is Error {
  return (
    error instanceof BackupError ||
    error instanceof ConfigError ||
    error instanceof EmbeddedPostgresError ||
    // node:util parseArgs: an unknown option, a missing value, an extra argument.
    String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_')
  );
}

/**
 * A path given on the command line, from the directory npm was started in (npm runs the
 * workspace's script in apps/server).
 */
export function fromInvocationDirectory(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}
