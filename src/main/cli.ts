#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { configShowCommand } from './commands/config_show.js';
import { endpointInvokeCommand } from './commands/endpoint_invoke.js';
import { genesisBlockCreateCommand } from './commands/genesis_block_create.js';
import { startCommand } from './commands/start.js';
import { hashOnionCommand } from './commands/hash_onion.js';
import { transactionCreateCommand, transactionSendCommand, transactionSignCommand } from './commands/transaction.js';
import { keysCreateCommand } from './commands/keys_create.js';
import { keysEncryptCommand, passphraseCreateCommand, passphraseDecryptCommand, passphraseEncryptCommand } from './commands/encrypt_commands.js';
import { keysExportCommand, keysImportCommand } from './commands/keys_transfer.js';
import { generatorDisableCommand, generatorEnableCommand, generatorExportCommand, generatorImportCommand, generatorStatusCommand, systemMetadataCommand, systemNodeInfoCommand } from './commands/node_commands.js';
import { ConfigError } from './config/index.js';
import { KESTREL_VERSION } from './version.js';

export const buildProgram = (): Command =>
  new Command('kestrel')
    .description('Kestrel: a worker-threaded, high-performance node for the Klayr protocol.')
    .version(KESTREL_VERSION, '-v, --version', 'Show the Kestrel version.')
    .showHelpAfterError()
    .addCommand(startCommand())
    .addCommand(configShowCommand())
    .addCommand(endpointInvokeCommand())
    .addCommand(genesisBlockCreateCommand())
    .addCommand(hashOnionCommand())
    .addCommand(transactionCreateCommand())
    .addCommand(transactionSignCommand())
    .addCommand(transactionSendCommand())
    .addCommand(keysCreateCommand())
    .addCommand(keysEncryptCommand())
    .addCommand(passphraseCreateCommand())
    .addCommand(passphraseEncryptCommand())
    .addCommand(passphraseDecryptCommand())
    .addCommand(keysImportCommand())
    .addCommand(keysExportCommand())
    .addCommand(systemNodeInfoCommand())
    .addCommand(systemMetadataCommand())
    .addCommand(generatorStatusCommand())
    .addCommand(generatorEnableCommand())
    .addCommand(generatorDisableCommand())
    .addCommand(generatorExportCommand())
    .addCommand(generatorImportCommand());

const main = async (argv: string[]): Promise<void> => {
  const program = buildProgram().exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode);
    process.stderr.write(`Error: ${e instanceof ConfigError ? e.message : (e as Error).message}\n`);
    process.exit(1);
  }
};

await main(process.argv);
