import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import {
  assertValidPassphrase,
  MNEMONIC_WORD_COUNTS,
  passphraseProblems,
  passphraseRuleErrors,
} from '../../src/lib/crypto/passphrase_rules.js';
import { Rng } from '../helpers/random.js';

const require = createRequire(import.meta.url);
const klayrPassphrase = require('@klayr/passphrase') as {
  validation: { getPassphraseValidationErrors: (p: string, wordlists?: string[], expected?: number) => unknown[] };
};
const klayrErrors = (p: string, expected?: number): unknown[] =>
  klayrPassphrase.validation.getPassphraseValidationErrors(p, undefined, expected);

const rng = new Rng(20_2026);
/** A valid mnemonic of `words` words from seeded entropy (words / 3 * 4 bytes). */
const mnemonic = (words: number): string => entropyToMnemonic(rng.bytes((words / 3) * 4), wordlist);
const words = (p: string): string[] => p.split(' ');
const replaceWord = (p: string, at: number, word: string): string =>
  words(p)
    .map((w, i) => (i === at ? word : w))
    .join(' ');

/** Valid mnemonics of every length, their usual mistakes, edge cases and seeded random strings. */
const inputs = (): string[] => {
  const valid = MNEMONIC_WORD_COUNTS.flatMap((n) => [mnemonic(n), mnemonic(n), mnemonic(n)]);
  valid.push(`${'abandon '.repeat(11)}about`, `${'zoo '.repeat(23)}vote`);
  const broken = valid.flatMap((p) => {
    const w = words(p);
    const last = w.length - 1;
    return [
      replaceWord(p, last, w[last] === 'zoo' ? 'abandon' : 'zoo'), // checksum
      replaceWord(p, 2, 'kestrelx'), // unknown word
      replaceWord(p, 0, (w[0] ?? '').toUpperCase()),
      `${(p[0] ?? '').toUpperCase()}${p.slice(1)}`,
      ` ${p}`,
      `${p} `,
      `${p}\n`,
      p.replace(' ', '  '),
      p.replace(' ', '\t'),
      p.replaceAll(' ', '\u00a0'),
      p.replace(' ', '\u00a0'),
      `\uff41${p.slice(1)}`, // a full-width first letter: BIP-39 normalizes it (NFKD)
      w.slice(0, -1).join(' '),
      `${p} ${w[0]}`,
      [w[1], w[0], ...w.slice(2)].join(' '),
      `${p} ${p}`,
    ];
  });
  const tokens = ['abandon', 'about', 'zoo', 'Zoo', 'vote', 'xyz', ' ', ' ', ' ', '  ', '\t', '\n', 'A', ''];
  const random = Array.from({ length: 300 }, () =>
    Array.from({ length: rng.int(30) }, () => rng.pick(tokens)).join(rng.pick([' ', '', ' '])),
  );
  const fewAndMany = [3, 9, 11, 13, 25, 27, 30].map((n) =>
    Array.from({ length: n }, () => rng.pick(wordlist)).join(' '),
  );
  return [...valid, ...broken, ...random, ...fewAndMany, '', ' ', '   ', '\t', 'a', 'abandon', 'ABANDON'];
};

describe("passphrase rules, against @klayr/passphrase's validation", () => {
  const all = inputs();

  it('passphraseRuleErrors gives the codes, messages, figures and locations Klayr gives, for every expected word count', () => {
    for (const p of all) {
      assert.deepStrictEqual(passphraseRuleErrors(p), klayrErrors(p), JSON.stringify(p));
      for (const n of [...MNEMONIC_WORD_COUNTS, 3, 27])
        assert.deepStrictEqual(passphraseRuleErrors(p, n), klayrErrors(p, n), `${JSON.stringify(p)} (${n} words)`);
    }
  });

  it('a passphrase is accepted exactly when Klayr accepts it for one of the word counts 12, 15, 18, 21, 24', () => {
    let accepted = 0;
    for (const p of all) {
      const klayrAccepts = MNEMONIC_WORD_COUNTS.some((n) => klayrErrors(p, n).length === 0);
      assert.equal(passphraseProblems(p).length === 0, klayrAccepts, JSON.stringify(p));
      if (klayrAccepts) accepted++;
      assert.equal(
        (() => {
          try {
            assertValidPassphrase(p);
            return true;
          } catch {
            return false;
          }
        })(),
        klayrAccepts,
      );
    }
    // the inputs hold both kinds: 17 valid mnemonics and their full-width variants
    assert.ok(accepted >= 17 && accepted < all.length / 2, `${accepted} accepted`);
  });
});

describe('passphrase problems say what is wrong', () => {
  const valid = mnemonic(12);
  const problems = (p: string): string => passphraseProblems(p).join(' ');

  it('one sentence per kind of mistake', () => {
    assert.equal(passphraseProblems(valid).length, 0);
    assert.match(problems(''), /empty/);
    assert.match(problems('   '), /empty/);
    assert.match(problems(`${valid} ${words(valid)[0]}`), /has 13 words; a passphrase has 12, 15, 18, 21 or 24/);
    assert.match(problems(words(valid).slice(0, 11).join(' ')), /has 11 words/);
    assert.match(problems(replaceWord(valid, 2, 'kestrelx')), /word 3 is not in the BIP-39 English word list/);
    assert.match(problems(` ${valid}`), /whitespace at character 1\b/);
    assert.match(problems(`${valid}  `), /whitespace at characters \d+ and \d+/);
    assert.match(problems(valid.replace(' ', '\t')), /non-space whitespace/);
    assert.match(problems(valid.toUpperCase()), /uppercase characters \(characters 1, 2, 3, 4, 5 and \d+ more\)/);
    const last = words(valid)[11];
    assert.match(problems(replaceWord(valid, 11, last === 'zoo' ? 'abandon' : 'zoo')), /checksum/);
    assert.throws(() => assertValidPassphrase('not a valid mnemonic'), /^Error: Invalid passphrase\. .*4 words/);
  });

  it('never quotes the words of the passphrase: two passphrases that differ only in a word of the same length are told the same', () => {
    const told = (word: string) => problems(`${replaceWord(valid, 4, word).toUpperCase()}  `);
    assert.equal(told('qqqsecretword'), told('zzzzzzzzzzzzz'));
    assert.ok(!told('qqqsecretword').toLowerCase().includes('qqqsecretword'));
    assert.match(told('qqqsecretword'), /word 5 is not in the BIP-39/);
  });
});
