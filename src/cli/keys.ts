/**
 * `coverage keys create|list|revoke|rotate`. A new secret is printed once, alone on stdout, so
 * `KEY=$(npx coverage keys create ...)` captures exactly it; everything else goes to stderr.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { MODES, type Mode } from '../domain/mode.ts';
import { type ApiKey, KeyStore } from '../store/keys.ts';
import { type CliIo, formatTable, processIo, withConfiguredStore } from './io.ts';

/** `50/min`, `50/minute` or `50`: checks per minute. */
export function parseRateLimit(value: string): number {
  const match = /^\s*(\d+)\s*(?:\/\s*(?:m|min|minute))?\s*$/i.exec(value);
  const n = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected checks per minute, such as 50/min');
  return n;
}

export async function createKey(keys: KeyStore, input: { name: string; env: Mode; rateLimit?: number | undefined }, io: CliIo): Promise<number> {
  const { key, secret } = await keys.create({ name: input.name, env: input.env, rate_limit_per_minute: input.rateLimit ?? null });
  io.stdout(`${secret}\n`);
  io.stderr(`Created ${key.id} (${key.env}). This is the only time the key is shown: store it now.\n`);
  return 0;
}

const status = (k: ApiKey) => (k.revoked_at ? 'revoked' : 'active');

/**
 * The stored prefix is a secret's first 12 characters; a key from a short COVERAGE_DEV_KEY of an
 * earlier version has its whole secret there, so such a prefix is not shown.
 */
const PREFIX_LENGTH = 12;
const shownPrefix = (k: ApiKey) => (k.prefix.length >= PREFIX_LENGTH ? k.prefix : '(hidden)');

export async function listKeys(keys: KeyStore, options: { json?: boolean | undefined }, io: CliIo): Promise<number> {
  const all = await keys.list();
  if (options.json) {
    io.stdout(
      `${JSON.stringify(
        all.map((k) => ({ ...k, prefix: shownPrefix(k), status: status(k) })),
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const rows = all.map((k) => [
    k.id,
    k.name,
    k.env,
    `${shownPrefix(k)}…`,
    k.rate_limit_per_minute ? `${k.rate_limit_per_minute}/min` : 'default',
    k.created_at,
    k.last_used_at ?? '-',
    status(k),
  ]);
  io.stdout(formatTable(['ID', 'NAME', 'ENV', 'PREFIX', 'LIMIT', 'CREATED', 'LAST USED', 'STATUS'], rows));
  return 0;
}

export async function revokeKey(keys: KeyStore, id: string, io: CliIo): Promise<number> {
  if (await keys.revoke(id)) {
    io.stdout(`Revoked ${id}\n`);
    return 0;
  }
  io.stderr(`No active key ${id}\n`);
  return 1;
}

export async function rotateKey(keys: KeyStore, id: string, io: CliIo): Promise<number> {
  const created = await keys.rotate(id);
  if (!created) {
    io.stderr(`No active key ${id}\n`);
    return 1;
  }
  io.stdout(`${created.secret}\n`);
  io.stderr(`Created ${created.key.id} to replace ${id}, which is now revoked. This is the only time the new key is shown: store it now.\n`);
  return 0;
}

export function registerKeysCommands(program: Command, io: CliIo = processIo): void {
  const keys = program.command('keys').description('issue, list, revoke and rotate API keys (same store as serve)');
  const run = (fn: (keys: KeyStore) => Promise<number>) => withConfiguredStore((db) => fn(new KeyStore(db)));

  keys
    .command('create')
    .description('create a key and print it once (the only output on stdout)')
    .requiredOption('--name <name>', 'who or what the key is for')
    .addOption(new Option('--env <env>', 'the network the key reaches').choices(MODES).makeOptionMandatory())
    .option('--rate-limit <limit>', 'checks per minute, such as 50/min (default 50/min)', parseRateLimit)
    .action((options: { name: string; env: Mode; rateLimit?: number }) => run((k) => createKey(k, options, io)));

  keys
    .command('list')
    .description('list keys (never their secrets)')
    .option('--json', 'JSON instead of a table')
    .action((options: { json?: boolean }) => run((k) => listKeys(k, options, io)));

  keys
    .command('revoke')
    .description('revoke a key; every instance refuses it within a second')
    .argument('<id>', 'key id, such as key_0123abcd')
    .action((id: string) => run((k) => revokeKey(k, id, io)));

  keys
    .command('rotate')
    .description('issue a new key with the same name, env and limit, print it once, and revoke the old one')
    .argument('<id>', 'key id to replace')
    .action((id: string) => run((k) => rotateKey(k, id, io)));
}
