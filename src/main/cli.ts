#!/usr/bin/env -S node --max-semi-space-size=64
/**
 * The `kestrel` command line. Every command module below loads only commander and the shared
 * flags: what a command runs is imported by its action, so `--version`, `--help` and the client
 * commands start without storage, the RPC server, IPC, BLS or the node
 * (test/main/cli_startup.test.ts holds both to that).
 */
import { Command, CommanderError } from 'commander';
import { blockGetCommand } from './commands/block/get.js';
import { blockchainExportCommand } from './commands/blockchain/export.js';
import { blockchainHashCommand } from './commands/blockchain/hash.js';
import { blockchainImportCommand } from './commands/blockchain/import.js';
import { blockchainResetCommand } from './commands/blockchain/reset.js';
import { configCreateCommand } from './commands/config/create.js';
import { configShowCommand } from './commands/config/show.js';
import { endpointInvokeCommand } from './commands/endpoint/invoke.js';
import { endpointListCommand } from './commands/endpoint/list.js';
import { generatorDisableCommand } from './commands/generator/disable.js';
import { generatorEnableCommand } from './commands/generator/enable.js';
import { generatorExportCommand } from './commands/generator/export.js';
import { generatorImportCommand } from './commands/generator/import.js';
import { generatorStatusCommand } from './commands/generator/status.js';
import { genesisBlockCreateCommand } from './commands/genesis-block/create.js';
import { hashOnionCommand } from './commands/hash-onion.js';
import { keysCreateCommand } from './commands/keys/create.js';
import { keysEncryptCommand } from './commands/keys/encrypt.js';
import { keysExportCommand } from './commands/keys/export.js';
import { keysImportCommand } from './commands/keys/import.js';
import { messageDecryptCommand } from './commands/message/decrypt.js';
import { messageEncryptCommand } from './commands/message/encrypt.js';
import { messageSignCommand } from './commands/message/sign.js';
import { messageVerifyCommand } from './commands/message/verify.js';
import { migrateCommand } from './commands/migrate.js';
import { networkInteropCommand } from './commands/network/interop.js';
import { networkLocalCommand } from './commands/network/local.js';
import { startCommand } from './commands/node/start.js';
import { passphraseCreateCommand } from './commands/passphrase/create.js';
import { passphraseDecryptCommand } from './commands/passphrase/decrypt.js';
import { passphraseEncryptCommand } from './commands/passphrase/encrypt.js';
import { PromptAborted } from './commands/prompt_aborted.js';
import { ReportedError } from './commands/reported_error.js';
import { systemMetadataCommand } from './commands/system/metadata.js';
import { systemNodeInfoCommand } from './commands/system/node-info.js';
import { transactionCreateCommand } from './commands/transaction/create.js';
import { transactionGetCommand } from './commands/transaction/get.js';
import { transactionSendCommand } from './commands/transaction/send.js';
import { transactionSignCommand } from './commands/transaction/sign.js';
import { KESTREL_VERSION } from './version.js';

/** The commands in the order `kestrel --help` lists them. */
const COMMANDS: (() => Command)[] = [
  startCommand,
  configShowCommand,
  configCreateCommand,
  endpointInvokeCommand,
  endpointListCommand,
  blockGetCommand,
  blockchainExportCommand,
  blockchainImportCommand,
  blockchainHashCommand,
  blockchainResetCommand,
  genesisBlockCreateCommand,
  hashOnionCommand,
  transactionCreateCommand,
  transactionSignCommand,
  transactionSendCommand,
  transactionGetCommand,
  keysCreateCommand,
  keysEncryptCommand,
  passphraseCreateCommand,
  passphraseEncryptCommand,
  passphraseDecryptCommand,
  messageSignCommand,
  messageVerifyCommand,
  messageEncryptCommand,
  messageDecryptCommand,
  keysImportCommand,
  keysExportCommand,
  systemNodeInfoCommand,
  systemMetadataCommand,
  generatorStatusCommand,
  generatorEnableCommand,
  generatorDisableCommand,
  generatorExportCommand,
  generatorImportCommand,
  networkInteropCommand,
  networkLocalCommand,
  migrateCommand,
];

const buildProgram = (): Command => {
  const program = new Command('kestrel')
    .description('Kestrel: a worker-threaded, high-performance node for the Klayr protocol.')
    .version(KESTREL_VERSION, '-v, --version', 'Show the Kestrel version.')
    .showHelpAfterError();
  for (const command of COMMANDS) program.addCommand(command());
  return program;
};

/** As oclif reads them for Klayr Core's CLI: an environment variable set to nothing is not set. */
const dropEmptyKlayrVariables = (): void => {
  for (const [name, value] of Object.entries(process.env))
    if (name.startsWith('KLAYR_') && value === '') delete process.env[name];
};

const main = async (argv: string[]): Promise<void> => {
  dropEmptyKlayrVariables();
  const program = buildProgram().exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode);
    if (e instanceof ReportedError) process.exit(1);
    if (e instanceof PromptAborted) {
      process.stderr.write(`${e.message}\n`);
      process.exit(e.exitCode);
    }
    // a ConfigError's message lists every problem with its JSON path
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    process.exit(1);
  }
};

await main(process.argv);
