/**
 * Where the CLI writes, the directory it resolves paths against, and its exit codes (docs/cli.md).
 *
 * @module
 */

/** Exit code of a successful run. */
export const EXIT_OK = 0;
/** Exit code when a file has a build diagnostic (spec §10), or `list` cannot list a tool. */
export const EXIT_DIAGNOSTICS = 1;
/** Exit code of bad usage: unknown command or option, no files, a file that cannot be read. */
export const EXIT_USAGE = 2;

/** Where the CLI writes and which directory relative paths start from. */
export interface CliIO {
  /** Receives standard output text. */
  stdout(text: string): void;
  /** Receives standard error text. */
  stderr(text: string): void;
  /** The working directory: file arguments are resolved and printed relative to it. */
  cwd: string;
}

/** The process's stdout, stderr and working directory as a {@link CliIO}. */
export function processIO(): CliIO {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    cwd: process.cwd(),
  };
}
