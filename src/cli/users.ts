/**
 * `coverage users add|list|disable|enable|reset`: the people who sign in to the console. A
 * password is typed at a prompt that does not echo, or read from stdin with --password-stdin;
 * it never comes from an argument (arguments show in `ps` and shell history). A TOTP enrolment
 * URI is printed once, alone on stdout.
 */
import { type Command, Option } from 'commander';
import { DataKey } from '../store/data-key.ts';
import { MODES, type Mode } from '../domain/mode.ts';
import { type User, UserInputError, UserStore } from '../store/users.ts';
import { loadConfig } from '../server/config.ts';
import { type CliIo, formatTable, processIo, withConfiguredStore } from './io.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

export interface PasswordSource {
  /** Reads the new password; rejects with the reason when there is none. */
  read(): Promise<string>;
}

/** The first line of stdin, without its line ending. */
export function stdinPassword(stdin: NodeJS.ReadableStream = process.stdin): PasswordSource {
  return {
    async read() {
      let text = '';
      for await (const chunk of stdin) text += chunk.toString();
      const line = text.split(/\r?\n/)[0] ?? '';
      if (line === '') throw new UserInputError('no password on stdin');
      return line;
    },
  };
}

/** One line typed at the terminal with nothing echoed. */
function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const done = (err: Error | null) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done(null);
        if (ch === '\u0003' || ch === '\u0004') return done(new UserInputError('cancelled'));
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export const terminalPassword: PasswordSource = {
  async read() {
    if (!process.stdin.isTTY) throw new UserInputError('no terminal to type a password at: pipe it in with --password-stdin');
    const first = await promptHidden('New password: ');
    const second = await promptHidden('Type it again: ');
    if (first !== second) throw new UserInputError('the passwords do not match');
    return first;
  },
};

const passwordSource = (options: { passwordStdin?: boolean }) => (options.passwordStdin ? stdinPassword() : terminalPassword);

function totpNotes(users: UserStore, io: CliIo): void {
  io.stderr('Add the otpauth:// URI above to the authenticator app (most turn it into a QR code, or take the secret typed in). It is not shown again.\n');
  if (!users.sealsSecrets)
    io.stderr('Note: COVERAGE_DATA_KEY is not set, so the TOTP secret is stored unencrypted; set it before adding users to seal them.\n');
}

async function guarded(io: CliIo, fn: () => Promise<number>): Promise<number> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof UserInputError)) throw err;
    io.stderr(`coverage users: ${err.message}\n`);
    return 1;
  }
}

export function addUser(
  users: UserStore,
  input: { username: string; env: Mode; totp?: boolean | undefined; sso?: boolean | undefined; password: PasswordSource },
  io: CliIo,
): Promise<number> {
  return guarded(io, async () => {
    if (input.sso) {
      const { user } = await users.create({ username: input.username, env: input.env, sso: true, totp: input.totp === true });
      io.stderr(
        `Created ${user.username} (${user.id}, ${user.env}). They sign in at /console through ` +
          `the organization's identity provider (COVERAGE_OIDC_*), as ${user.username}.\n`,
      );
      return 0;
    }
    const password = await input.password.read();
    const { user, totpUri } = await users.create({ username: input.username, env: input.env, password, totp: input.totp === true });
    if (totpUri) io.stdout(`${totpUri}\n`);
    io.stderr(`Created ${user.username} (${user.id}, ${user.env})${user.totp ? ' with TOTP' : ''}. They sign in at /console.\n`);
    if (totpUri) totpNotes(users, io);
    return 0;
  });
}

export function resetUser(users: UserStore, input: { username: string; totp?: boolean | undefined; password: PasswordSource }, io: CliIo): Promise<number> {
  return guarded(io, async () => {
    if (!(await users.get(input.username))) {
      io.stderr(`No user ${input.username}\n`);
      return 1;
    }
    const password = await input.password.read();
    const reset = await users.reset(input.username, { password, totp: input.totp });
    if (!reset) {
      io.stderr(`No user ${input.username}\n`);
      return 1;
    }
    if (reset.totpUri) io.stdout(`${reset.totpUri}\n`);
    const totp = input.totp === undefined ? '' : input.totp ? '; new TOTP secret' : '; TOTP removed';
    io.stderr(`Reset ${reset.user.username}: new password, lockout cleared, every session signed out${totp}.\n`);
    if (reset.totpUri) totpNotes(users, io);
    return 0;
  });
}

export async function disableUser(users: UserStore, username: string, io: CliIo): Promise<number> {
  if (await users.disable(username)) {
    io.stdout(`Disabled ${username.trim().toLowerCase()}; their sessions are signed out\n`);
    return 0;
  }
  io.stderr(`No enabled user ${username}\n`);
  return 1;
}

export async function enableUser(users: UserStore, username: string, io: CliIo): Promise<number> {
  if (await users.enable(username)) {
    io.stdout(`Enabled ${username.trim().toLowerCase()}\n`);
    return 0;
  }
  io.stderr(`No disabled user ${username}\n`);
  return 1;
}

export function userStatus(u: User, now = dateOf(systemClock)): 'disabled' | 'locked' | 'active' {
  if (u.disabled_at) return 'disabled';
  if (u.locked_until && u.locked_until > now.toISOString()) return 'locked';
  return 'active';
}

export async function listUsers(users: UserStore, options: { json?: boolean | undefined }, io: CliIo): Promise<number> {
  const all = await users.list();
  if (options.json) {
    io.stdout(
      `${JSON.stringify(
        all.map((u) => ({ ...u, status: userStatus(u) })),
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const rows = all.map((u) => [
    u.username,
    u.id,
    u.env,
    u.sso ? 'sso' : u.totp ? 'password+totp' : 'password',
    u.created_at,
    u.last_sign_in_at ?? '-',
    userStatus(u),
  ]);
  io.stdout(formatTable(['USERNAME', 'ID', 'ENV', 'SIGN-IN', 'CREATED', 'LAST SIGN-IN', 'STATUS'], rows));
  return 0;
}

export function registerUsersCommands(program: Command, io: CliIo = processIo): void {
  const users = program.command('users').description('people who sign in to the console: add, list, disable, enable, reset (same store as serve)');
  const run = (fn: (users: UserStore) => Promise<number>) =>
    withConfiguredStore((db) => {
      const config = loadConfig();
      return fn(
        new UserStore(db, {
          dataKey: config.dataKey ? DataKey.fromBytes(config.dataKey) : null,
          maxFailures: config.console.maxFailures,
          lockoutMs: config.console.lockoutMs,
        }),
      );
    });
  const stdinOption = new Option('--password-stdin', 'read the password from the first line of stdin instead of a prompt');

  users
    .command('add')
    .description('add a person; the password is typed at a prompt (or --password-stdin)')
    .argument('<username>', 'their sign-in name, such as alice or alice@clinic.example')
    .addOption(new Option('--env <env>', 'the network they reach (default: COVERAGE_MODE)').choices(MODES))
    .option('--totp', 'enrol a one-time-code app; its otpauth:// URI is printed once on stdout')
    .option('--sso', "no password here: they sign in through the organization's identity provider (OpenID Connect), USERNAME being their email")
    .addOption(stdinOption)
    .action((username: string, options: { env?: Mode; totp?: boolean; sso?: boolean; passwordStdin?: boolean }) =>
      run((u) => addUser(u, { username, env: options.env ?? loadConfig().mode, totp: options.totp, sso: options.sso, password: passwordSource(options) }, io)),
    );

  users
    .command('list')
    .description('list people (never passwords or secrets)')
    .option('--json', 'JSON instead of a table')
    .action((options: { json?: boolean }) => run((u) => listUsers(u, options, io)));

  users
    .command('disable')
    .description('stop a person signing in; their sessions end at their next request')
    .argument('<username>')
    .action((username: string) => run((u) => disableUser(u, username, io)));

  users
    .command('enable')
    .description('let a disabled person sign in again')
    .argument('<username>')
    .action((username: string) => run((u) => enableUser(u, username, io)));

  users
    .command('reset')
    .description('set a new password, clear a lockout and sign the person out everywhere')
    .argument('<username>')
    .option('--totp', 'issue a new one-time-code secret (printed once on stdout)')
    .option('--no-totp', 'remove one-time codes from this account')
    .addOption(new Option('--password-stdin', 'read the password from the first line of stdin instead of a prompt'))
    .action((username: string, options: { totp?: boolean; passwordStdin?: boolean }) =>
      run((u) => resetUser(u, { username, totp: options.totp, password: passwordSource(options) }, io)),
    );
}
