/**
 * The small logging interface core code writes to. The extension bridges it to its
 * `LogOutputChannel`, the CLI to stderr, tests to an array. Lines are plain strings; callers
 * never log secrets (the model client also redacts its API key from everything it logs).
 *
 * URLs may carry secrets (`http://user:key@host/v1`, `?api-key=…`): {@link redactUrlCredentials}
 * is the one helper that strips them; {@link consoleLogger}, {@link redactingLogger} and
 * {@link redactor} apply it to every line / text, and the model layer to its error messages.
 */

/** Where core code writes its log lines. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The levels of a {@link Logger}, least severe first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** A logger that drops everything. */
export const nullLogger: Logger = Object.freeze({
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
});

/** Anything with a `write(text)`, e.g. `process.stderr`. */
export interface WritableLike {
  write(text: string): unknown;
}

/** Options for {@link consoleLogger}. */
export interface ConsoleLoggerOptions {
  /** Lines below this level are dropped (default `'info'`). */
  level?: LogLevel;
  /** Prefix each line with an ISO timestamp (default false). */
  timestamps?: boolean;
}

/**
 * A logger writing one line per message to `stream`, as `[level] message`.
 *
 * @example
 * ```ts
 * const log = consoleLogger(process.stderr, { level: 'debug' });
 * log.info('markers: 12 items');   // "[info] markers: 12 items"
 * ```
 */
export function consoleLogger(stream: WritableLike, options: ConsoleLoggerOptions = {}): Logger {
  const min = LEVELS.indexOf(options.level ?? 'info');
  const line =
    (level: LogLevel) =>
    (message: string): void => {
      if (LEVELS.indexOf(level) < min) return;
      const stamp = options.timestamps === true ? `${new Date().toISOString()} ` : '';
      stream.write(`${stamp}[${level}] ${redactUrlCredentials(message)}\n`);
    };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/**
 * Wraps `log` so that every occurrence of each of `secrets` in a line is replaced by `***`
 * before it is written, and every URL's credentials are redacted ({@link redactUrlCredentials}).
 * Empty secrets are ignored.
 */
export function redactingLogger(log: Logger, secrets: readonly (string | undefined)[]): Logger {
  const redact = redactor(secrets);
  return {
    debug: (m) => log.debug(redact(m)),
    info: (m) => log.info(redact(m)),
    warn: (m) => log.warn(redact(m)),
    error: (m) => log.error(redact(m)),
  };
}

/**
 * A function replacing every occurrence of each non-empty secret (length ≥ 4) in a string by
 * `***`, and every URL's credentials ({@link redactUrlCredentials}).
 */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4).sort((a, b) => b.length - a.length);
  return (text) => redactUrlCredentials(list.reduce((out, secret) => out.split(secret).join('***'), text));
}

/** `scheme://userinfo@` — the user info (user name and password) of a URL. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"<>]+@/gi;
/** Query parameters whose value is a secret. */
const URL_SECRET_PARAM = /([?&](?:api[-_]?key|key|token|access[-_]?token|auth|authorization|secret|client[-_]?secret|password|passwd|pwd|sig|signature)=)[^&#\s'"<>]*/gi;

/**
 * Redacts the credentials of every URL in `text`: the user info (`http://user:key@host` →
 * `http://***@host`) and the values of key-like query parameters (`?api-key=…` → `?api-key=***`).
 * Everything else is left as it is.
 *
 * @example
 * ```ts
 * redactUrlCredentials('GET http://me:sk-1@127.0.0.1/v1?key=k&model=m'); // 'GET http://***@127.0.0.1/v1?key=***&model=m'
 * ```
 */
export function redactUrlCredentials(text: string): string {
  return text.replace(URL_USERINFO, '$1***@').replace(URL_SECRET_PARAM, '$1***');
}

/** True when `url` (parsed as a URL) has a user name or password. */
export function urlHasCredentials(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}
