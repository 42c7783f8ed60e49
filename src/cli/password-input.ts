import { currentIo, readStdin, servedRuntime } from './context.js';
import { UsageError } from './output.js';

/**
 * How a command gets a password: never from its arguments, which other users of the machine see (`ps`) and the
 * shell's history keeps (docs/decisions.md "Passwords never on the command line").
 */
export type PasswordSource = 'stdin' | 'prompt' | 'generate';

/** Which source the flags and the terminal allow; checked before anything is opened. */
export function passwordSource(command: string, opts: { passwordGiven: boolean; passwordStdin: boolean; generatePassword: boolean }):
PasswordSource {
  if (opts.passwordGiven) {
    throw new UsageError(`${command}: --password is not accepted (a password on the command line is seen by other users in the `
      + 'process list and kept in the shell history); pipe it with --password-stdin, answer the prompt, or use --generate-password');
  }
  if (opts.passwordStdin && opts.generatePassword) {
    throw new UsageError(`${command}: --password-stdin and --generate-password exclude each other`);
  }
  if (opts.passwordStdin) return 'stdin';
  if (opts.generatePassword) return 'generate';
  // Run in a server for a caller, the terminal is the caller's, which asked already (src/cli/main.ts `callerInput`).
  if (servedRuntime() || !currentIo().stdinIsTTY) {
    throw new UsageError(`${command}: no terminal to ask for the password on; pipe it with --password-stdin `
      + '(printf %s "$PASSWORD" | gatehouse …), or use --generate-password');
  }
  return 'prompt';
}

/** Standard input, whole: one line, without the line break that ends it. */
export async function readPasswordFromStdin(command: string): Promise<string> {
  const password = (await readStdin()).replace(/\r?\n$/, '');
  if (password === '') throw new UsageError(`${command}: --password-stdin read nothing on standard input`);
  if (/[\r\n]/.test(password)) throw new UsageError(`${command}: --password-stdin expects one line on standard input, not several`);
  return password;
}

const ENTER = new Set(['\r', '\n', '\u0004']);
const ERASE = new Set(['\u007f', '\b']);
const INTERRUPT = '\u0003';

/** One line typed on the terminal, not echoed; the prompt goes to stderr, so stdout stays the command's answer. */
function promptHidden(prompt: string): Promise<string> {
  const io = currentIo();
  const input = io.stdin;
  if (input === null || Buffer.isBuffer(input) || !io.stdinIsTTY) return Promise.reject(new UsageError('no terminal to ask on'));
  // Echo off before the prompt shows: what is typed as soon as it appears is not echoed either.
  input.setRawMode(true);
  io.err(prompt);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = () => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      io.err('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ENTER.has(ch)) { finish(); resolve(typed); return; }
        if (ch === INTERRUPT) { finish(); reject(new UsageError('interrupted')); return; }
        if (ERASE.has(ch)) typed = [...typed].slice(0, -1).join('');
        else if (ch >= ' ') typed += ch;
      }
    };
    input.on('data', onData);
  });
}

/** Asked twice on the terminal, so a typing mistake does not become the password. */
export async function promptNewPassword(command: string): Promise<string> {
  const password = await promptHidden('Password: ');
  if (password === '') throw new UsageError(`${command}: no password typed`);
  if (await promptHidden('Password again: ') !== password) throw new UsageError(`${command}: the two passwords typed differ`);
  return password;
}
