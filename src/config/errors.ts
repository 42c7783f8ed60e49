/** A setting that cannot be used: the message names it (never a secret's value), and start-up stops. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
