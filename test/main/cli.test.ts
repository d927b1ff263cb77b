import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../src/main/cli.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
const version = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('kestrel CLI', () => {
  it('--help lists the commands; every command has --help', () => {
    const help = run('--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /config:show/);
    const sub = run('config:show', '--help');
    assert.equal(sub.status, 0);
    for (const flag of [
      '--network',
      '--data-path',
      '--config',
      '--api-ipc',
      '--api-ws',
      '--api-http',
      '--api-port',
      '--api-host',
      '--log',
    ])
      assert.match(sub.stdout, new RegExp(flag));
  });

  it('--version prints the package version', () => {
    assert.equal(run('--version').stdout.trim(), version);
  });

  it('config:show prints the merged config as JSON, flags applied', () => {
    const out = run('config:show', '--api-port', '8123', '-l', 'debug', '-d', '/tmp/kestrel-cli');
    assert.equal(out.status, 0, out.stderr);
    const config = JSON.parse(out.stdout) as {
      rpc: { port: number };
      system: { logLevel: string; dataPath: string };
      genesis: { chainID: string };
    };
    assert.equal(config.rpc.port, 8123);
    assert.equal(config.system.logLevel, 'debug');
    assert.equal(config.system.dataPath, '/tmp/kestrel-cli');
    assert.equal(config.genesis.chainID, '04000000');
  });

  it('genesis-block:create rebuilds the devnet genesis block byte for byte from its assets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kestrel-genesis-'));
    const assets = fileURLToPath(new URL('../../../src/main/network/devnet/genesis_assets.json', import.meta.url));
    const out = run('genesis-block:create', '-f', assets, '-o', dir, '-t', '1713267359', '--export-json');
    assert.equal(out.status, 0, out.stderr);
    assert.equal(
      out.stdout,
      `Genesis block files saved at: ${dir}\nGenesis block ID: 569d3da971979f0a5832c84784dda3f86194664e8a9cff7fea50fef243354d48\n`,
    );
    assert.equal(statSync(join(dir, 'genesis_block.blob')).mode & 0o777, 0o600);
    // as Klayr Core's: the JSON only with --export-json, two-space indented, no final newline
    const json = readFileSync(join(dir, 'genesis_block.json'), 'utf8');
    assert.equal(json, JSON.stringify(JSON.parse(json), undefined, '  '));
    const withoutJSON = mkdtempSync(join(tmpdir(), 'kestrel-genesis-'));
    assert.equal(run('genesis-block:create', '-f', assets, '-o', withoutJSON, '-h', '0').status, 0);
    assert.equal(existsSync(join(withoutJSON, 'genesis_block.json')), false);
    const expected = readFileSync(new URL('../../../src/main/network/devnet/genesis_block.blob', import.meta.url));
    assert.deepEqual(readFileSync(join(dir, 'genesis_block.blob')), expected);
    assert.equal(
      (JSON.parse(readFileSync(join(dir, 'genesis_block.json'), 'utf8')) as { header: { id: string } }).header.id.slice(
        0,
        8,
      ),
      '569d3da9',
    );
    const bad = run('genesis-block:create', '-f', '/nonexistent.json', '-o', dir);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /Cannot read the assets file/);
    assert.notEqual(run('genesis-block:create', '-f', assets, '--height', '-1').status, 0);
  });

  it('bad flags and invalid configs exit non-zero with a clear message and print no config', () => {
    const badLevel = run('config:show', '-l', 'loud');
    assert.notEqual(badLevel.status, 0);
    assert.match(badLevel.stderr, /Allowed choices are/);
    const badPort = run('config:show', '--api-port', '80');
    assert.equal(badPort.status, 1);
    assert.match(badPort.stderr, /config\.rpc\.port: must be >= 1024/);
    assert.equal(badPort.stdout, '');
    const notPort = run('config:show', '--api-port', 'abc');
    assert.notEqual(notPort.status, 0);
    assert.match(notPort.stderr, /integer port/);
    const unknown = run('nonsense');
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /unknown command/);
  });
});
