import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { Generator } from '../../src/engine/generator/generator.js';
import { RepeatedLog } from '../../src/lib/log/repeated_log.js';
import { chooseLogFormat, createLogger } from '../../src/main/logger.js';
import { runCLI } from '../helpers/cli.js';
import { klayrCrypto } from '../helpers/klayr.js';
import { heldPort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const KLY = 'klyguo9kqnea2zsfo3a6qppozsxsg92nuuma3p7ad';
const HEX = (klayrCrypto.address.getAddressFromKlayr32Address(KLY) as Buffer).toString('hex');

/** A destination that keeps what it is given. */
const sink = (): { stream: Writable; text: () => string } => {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
};

/** Records what a logger is asked to log. */
const recorder = () => {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const at = (level: string) => (obj: object, msg: string) =>
    lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
};

describe('log format', () => {
  it('pretty on a terminal, JSON otherwise, and the flag decides when given', () => {
    assert.equal(chooseLogFormat(undefined, true), 'pretty');
    assert.equal(chooseLogFormat(undefined, false), 'json');
    assert.equal(chooseLogFormat('json', true), 'json');
    assert.equal(chooseLogFormat('pretty', false), 'pretty');
  });

  it('JSON: one object a line, addresses as kly addresses', async () => {
    const out = sink();
    createLogger('info', 'kestrel', { format: 'json', destination: out.stream }).info(
      { height: 3, generatorAddress: HEX, nested: { address: Buffer.from(HEX, 'hex') }, id: 'ab'.repeat(32) },
      'Generated new block',
    );
    await tick();
    const record = JSON.parse(out.text()) as Record<string, unknown>;
    assert.equal(record.msg, 'Generated new block');
    assert.equal(record.level, 30);
    assert.equal(record.generatorAddress, KLY);
    assert.deepEqual(record.nested, { address: KLY });
    assert.equal(record.id, 'ab'.repeat(32), 'other hex fields stay hex');
  });

  it('pretty: local time, level and message on one line, addresses as kly addresses', async () => {
    const out = sink();
    createLogger('info', 'kestrel', { format: 'pretty', destination: out.stream }).warn(
      { generatorAddress: HEX, height: 3 },
      'Something to see',
    );
    await tick();
    const line = out.text();
    const time = /^\[(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})\] WARN: Something to see /.exec(line);
    assert.ok(time, line);
    // a date-time without an offset is read as local time: it is now only if the line is in local time
    assert.ok(Math.abs(new Date(`${time[1]}T${time[2]}`).getTime() - Date.now()) < 5000, `local time first: ${line}`);
    assert.ok(line.includes(KLY) && !line.includes(HEX), line);
    assert.equal(line.trimEnd().split('\n').length, 1);
    assert.ok(!line.includes('"pid"') && !line.includes('hostname'), line);
  });

  describe('kestrel start', () => {
    // a held port stops each start right after its first log lines (the config warnings)
    let busy: { port: number; close(): void };
    let port: number;
    let config: string;
    before(async () => {
      busy = await heldPort();
      port = busy.port;
      const { writeFileSync } = await import('node:fs');
      config = `${tempDataPath()}/config.json`;
      writeFileSync(config, JSON.stringify({ plugins: { dashboard: {} } }));
    });
    after(() => busy.close());

    it('logs JSON lines when stderr is not a terminal, and pretty lines with --log-format pretty', async () => {
      const json = await runCLI('start', '-d', tempDataPath(), '-c', config, '--api-port', String(port));
      const lines = json.stderr.split('\n').filter((l) => l.startsWith('{'));
      assert.ok(lines.length >= 2, json.stderr);
      assert.ok(lines.some((l) => (JSON.parse(l) as { key?: string }).key === 'plugins.dashboard'));
      const pretty = await runCLI(
        'start',
        '-d',
        tempDataPath(),
        '-c',
        config,
        '--api-port',
        String(port),
        '--log-format',
        'pretty',
      );
      assert.match(pretty.stderr, /^\[[\d-]+ [\d:.]+\] WARN: Config key plugins\.dashboard is accepted but not used/m);
      assert.ok(!pretty.stderr.split('\n').some((l) => l.startsWith('{')), pretty.stderr);
      const forcedJSON = await runCLI(
        'start',
        '-d',
        tempDataPath(),
        '-c',
        config,
        '--api-port',
        String(port),
        '--log-format',
        'json',
      );
      assert.ok(forcedJSON.stderr.split('\n').some((l) => l.startsWith('{') && l.includes('plugins.dashboard')));
      assert.match((await runCLI('start', '--log-format', 'xml')).stderr, /Allowed choices are pretty, json/);
    });
  });
});

describe('a failure repeated on every tick', () => {
  it('is logged once in full, then counted: the count is logged when the job recovers', () => {
    const log = recorder();
    const repeated = new RepeatedLog(log, { now: () => 0 });
    const error = new Error('disk full');
    for (let i = 0; i < 100; i++) repeated.report(error, 'Block generation failed');
    assert.equal(log.lines.length, 1);
    assert.equal(log.lines[0]!.obj.err, error, 'the first one with its error (and stack)');
    repeated.resolved();
    assert.equal(log.lines.length, 2);
    assert.equal(log.lines[1]!.msg, 'Block generation failed: repeated 99 times in 0 s');
    assert.deepEqual(log.lines[1]!.obj, { repeated: 99, seconds: 0, error: 'disk full' });
    repeated.resolved();
    repeated.report(error, 'Block generation failed');
    assert.equal(log.lines.length, 3, 'after a recovery the next failure is logged in full again');
  });

  it('a different failure ends the count of the previous one and is logged in full', () => {
    const log = recorder();
    const repeated = new RepeatedLog(log, { now: () => 0 });
    repeated.report(new Error('a'), 'Job failed');
    repeated.report(new Error('a'), 'Job failed');
    repeated.report(new Error('b'), 'Job failed');
    assert.deepEqual(
      log.lines.map((l) => l.msg),
      ['Job failed', 'Job failed: repeated 1 times in 0 s', 'Job failed'],
    );
    assert.equal((log.lines[2]!.obj.err as Error).message, 'b');
  });

  it('a failure that goes on is counted again every interval', () => {
    const log = recorder();
    let now = 0;
    const repeated = new RepeatedLog(log, { level: 'warn', summaryIntervalMs: 60_000, now: () => now });
    for (; now <= 150_000; now += 1000) repeated.report(new Error('x'), 'Job failed');
    assert.deepEqual(
      log.lines.map((l) => l.msg),
      ['Job failed', 'Job failed: repeated 60 times in 60 s', 'Job failed: repeated 60 times in 60 s'],
    );
    assert.ok(log.lines.every((l) => l.level === 'warn'));
  });

  it('the block generator logs a failing tick once, and the count when it stops', async () => {
    const log = recorder();
    const chain = {
      lastBlock: () => {
        throw new Error('the store is closed');
      },
      finalizedHeight: () => 0,
      onCommitted: () => undefined,
    };
    const generator = new Generator({
      chain: chain as never,
      executor: {} as never,
      aggregateCommits: {} as never,
      chainID: Buffer.alloc(4),
      db: {} as never,
      keys: [],
      maxTransactionsSize: 15360,
      logger: log as never,
    });
    for (let i = 0; i < 30; i++) assert.equal(await generator.tick(), undefined);
    assert.equal(log.lines.length, 1);
    assert.equal(log.lines[0]!.msg, 'Block generation failed');
    assert.equal((log.lines[0]!.obj.err as Error).message, 'the store is closed');
    generator.stop();
    assert.equal(log.lines.length, 2);
    assert.match(log.lines[1]!.msg, /^Block generation failed: repeated 29 times in \d+ s$/);
  });
});
