/**
 * A mistake in how the command was called (unknown option, missing value, missing credentials). The CLI
 * prints its message on one line with a pointer to `--help` and exits with status 2.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure the user should read as one line, without a stack (a refused webhook, an existing file). */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}
