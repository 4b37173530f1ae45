/** `coverage --help` lists the on-demand commands by what src/cli/on-demand.ts says, which must be what their modules register. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Command } from 'commander';
import { ON_DEMAND_COMMANDS, registerOnDemand } from '../../src/cli/on-demand.ts';
import { runCli } from '../support/processes.ts';

test('each on-demand command is listed with the name and description its module registers', async () => {
  for (const entry of ON_DEMAND_COMMANDS) {
    const program = new Command('coverage');
    (await entry.load())(program);
    const registered = program.commands.find((c) => c.name() === entry.name);
    assert.ok(registered, `${entry.name}: its module registers no such command`);
    assert.equal(entry.description, registered.description(), `${entry.name}: description differs from its module's`);
  }
});

test("the named command (also after help) is the module's own, the others are listings without subcommands or options", async () => {
  for (const args of [
    ['keys', 'list'],
    ['help', 'keys'],
  ]) {
    const program = new Command('coverage');
    await registerOnDemand(program, args);
    const keys = program.commands.find((c) => c.name() === 'keys')!;
    assert.ok(keys.commands.length > 0, `${args.join(' ')}: keys has its subcommands`);
    const usage = program.commands.find((c) => c.name() === 'usage')!;
    assert.equal(usage.options.length, 0);
    assert.equal(program.commands.length, ON_DEMAND_COMMANDS.length);
  }
});

test('coverage --version prints the package version', async () => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const out = await runCli([flag], {});
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), version);
  }
});
