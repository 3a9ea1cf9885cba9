import { SecretRegistry } from '../core/logging/secret-registry.js';

/**
 * The secrets this `partner-equity` process was given or made (a webhook secret read from a file or the
 * environment, a token it printed): {@link formatError} replaces them by value in every error line, on top
 * of the shape-based redaction. One process runs one command, so one registry per process.
 *
 * @example
 * ```ts
 * cliSecrets.add(secret); // before anything that could fail while holding it
 * ```
 */
export const cliSecrets = new SecretRegistry();
