/** The SDK's own version, sent in `User-Agent` and reported by the CLI. Kept in step with package.json by a test. */
export const VERSION = '0.1.0';
