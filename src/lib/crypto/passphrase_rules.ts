/**
 * Klayr's passphrase rules (those of @klayr/passphrase's validation): a BIP-39 English mnemonic of
 * 12, 15, 18, 21 or 24 lowercase words separated by single spaces, with a valid checksum.
 */
import { validateMnemonic } from '@scure/bip39';
import { wordlist as englishWords } from '@scure/bip39/wordlists/english';

/** The word counts a BIP-39 mnemonic may have (128 to 256 bits of entropy, in steps of 32). */
export const MNEMONIC_WORD_COUNTS: readonly number[] = [12, 15, 18, 21, 24];

export type PassphraseErrorCode =
  | 'INVALID_AMOUNT_OF_WORDS'
  | 'INVALID_AMOUNT_OF_WHITESPACES'
  | 'INVALID_AMOUNT_OF_UPPERCASE_CHARACTER'
  | 'INVALID_MNEMONIC';

/** One broken rule, with the code, message and figures @klayr/passphrase gives for it. */
export interface PassphraseRuleError {
  code: PassphraseErrorCode;
  message: string;
  actual: number | boolean;
  expected: number | boolean;
  /** indexes (UTF-16 code units) of the characters at fault, for whitespace and uppercase errors */
  location?: number[];
}

const isWhitespace = (c: string): boolean => /\s/.test(c);
const isUppercase = (c: string): boolean => c >= 'A' && c <= 'Z';
const englishIndex = new Set(englishWords);

/** Words as Klayr counts them: the non-empty pieces between single spaces (a tab does not separate words). */
export const passphraseWords = (passphrase: string): string[] => passphrase.split(' ').filter((w) => w !== '');

const indexesWhere = (passphrase: string, test: (c: string, i: number) => boolean): number[] => {
  const found: number[] = [];
  for (let i = 0; i < passphrase.length; i++) if (test(passphrase[i] ?? '', i)) found.push(i);
  return found;
};

/** Leading and trailing whitespace, and each whitespace that follows another one. */
export const locateExtraWhitespace = (passphrase: string): number[] =>
  indexesWhere(
    passphrase,
    (c, i) => isWhitespace(c) && (i === 0 || i === passphrase.length - 1 || isWhitespace(passphrase[i - 1] ?? '')),
  );

export const locateUppercase = (passphrase: string): number[] => indexesWhere(passphrase, isUppercase);

const countWhitespace = (passphrase: string): number => indexesWhere(passphrase, isWhitespace).length;

/** Whether the passphrase is a BIP-39 English mnemonic (words, count and checksum; NFKD-normalized as BIP-39 says). */
export const isEnglishMnemonic = (passphrase: string): boolean => validateMnemonic(passphrase, englishWords);

/**
 * The rules `passphrase` breaks when it should have `expectedWords` words, in @klayr/passphrase's order and
 * wording (getPassphraseValidationErrors with the English word list): empty when it keeps them all.
 */
export const passphraseRuleErrors = (passphrase: string, expectedWords = 12): PassphraseRuleError[] => {
  const errors: PassphraseRuleError[] = [];
  const words = passphraseWords(passphrase).length;
  if (words !== expectedWords)
    errors.push({
      code: 'INVALID_AMOUNT_OF_WORDS',
      actual: words,
      expected: expectedWords,
      message: `Passphrase contains ${words} words instead of expected ${expectedWords}. Please check the passphrase.`,
    });
  const whitespaces = countWhitespace(passphrase);
  if (whitespaces !== expectedWords - 1)
    errors.push({
      code: 'INVALID_AMOUNT_OF_WHITESPACES',
      actual: whitespaces,
      expected: expectedWords - 1,
      location: locateExtraWhitespace(passphrase),
      message: `Passphrase contains ${whitespaces} whitespaces instead of expected ${expectedWords - 1}. Please check the passphrase.`,
    });
  const uppercase = locateUppercase(passphrase);
  if (uppercase.length !== 0)
    errors.push({
      code: 'INVALID_AMOUNT_OF_UPPERCASE_CHARACTER',
      actual: uppercase.length,
      expected: 0,
      location: uppercase,
      message: `Passphrase contains ${uppercase.length} uppercase character instead of expected 0. Please check the passphrase.`,
    });
  if (!isEnglishMnemonic(passphrase))
    errors.push({
      code: 'INVALID_MNEMONIC',
      actual: false,
      expected: true,
      message: 'Passphrase is not a valid mnemonic passphrase. Please check the passphrase.',
    });
  return errors;
};

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
const SHOWN_POSITIONS = 5;
/** Positions for people, counted from 1: "character 3", "words 1, 14 and 20", "characters 1, 2, 3, 4, 5 and 9 more" */
const positions = (noun: string, indexes: readonly number[]): string => {
  const human = indexes.slice(0, SHOWN_POSITIONS).map((i) => String(i + 1));
  const more = indexes.length - human.length;
  const last = more > 0 ? `${more} more` : human.pop();
  return `${noun}${indexes.length === 1 ? '' : 's'} ${human.length === 0 ? last : `${human.join(', ')} and ${last}`}`;
};

/**
 * What is wrong with a passphrase, one sentence per problem, for a person to fix it; empty when it is a valid
 * Klayr passphrase (a word count BIP-39 allows and no rule of passphraseRuleErrors broken for that count). The
 * sentences name positions, never the words, so that no part of the secret reaches a terminal or a log.
 */
export const passphraseProblems = (passphrase: string): string[] => {
  if (passphrase.trim() === '')
    return [
      `The passphrase is empty: a passphrase is ${MNEMONIC_WORD_COUNTS.slice(0, -1).join(', ')} or 24 words of the BIP-39 English word list, separated by single spaces.`,
    ];
  const words = passphraseWords(passphrase);
  const problems: string[] = [];
  if (!MNEMONIC_WORD_COUNTS.includes(words.length))
    problems.push(
      `The passphrase has ${plural(words.length, 'word', 'words')}; a passphrase has ${MNEMONIC_WORD_COUNTS.slice(0, -1).join(', ')} or 24.`,
    );
  // whitespace: Klayr expects exactly one whitespace between two words; point at every one that is not that
  const whitespaces = countWhitespace(passphrase);
  if (whitespaces !== words.length - 1) {
    const first = passphrase.search(/\S/);
    let last = passphrase.length - 1;
    while (last > first && isWhitespace(passphrase[last] ?? '')) last--;
    const misplaced = indexesWhere(
      passphrase,
      (c, i) => isWhitespace(c) && (c !== ' ' || i < first || i > last || isWhitespace(passphrase[i - 1] ?? '')),
    );
    problems.push(
      `The passphrase has ${plural(whitespaces, 'whitespace character', 'whitespace characters')} for ${plural(words.length, 'word', 'words')} instead of ${words.length - 1}: leading, trailing, repeated or non-space whitespace at ${positions('character', misplaced)}. Words are separated by single spaces.`,
    );
  }
  const uppercase = locateUppercase(passphrase);
  if (uppercase.length !== 0)
    problems.push(
      `The passphrase has ${plural(uppercase.length, 'uppercase character', 'uppercase characters')} (${positions('character', uppercase)}); a passphrase is lowercase.`,
    );
  const unknown = words
    .map((w, i) => ({ known: englishIndex.has(w.normalize('NFKD').toLowerCase()), i }))
    .filter((w) => !w.known)
    .map((w) => w.i);
  if (unknown.length !== 0)
    problems.push(
      `The passphrase's ${positions('word', unknown)} ${unknown.length === 1 ? 'is' : 'are'} not in the BIP-39 English word list.`,
    );
  if (problems.length === 0 && !isEnglishMnemonic(passphrase))
    problems.push(
      'The passphrase is not a valid BIP-39 mnemonic: its checksum does not match its words (a word is mistyped, missing or out of order).',
    );
  return problems;
};

/** Throws an Error that says what is wrong unless `passphrase` is a valid Klayr passphrase. */
export const assertValidPassphrase = (passphrase: string): void => {
  const problems = passphraseProblems(passphrase);
  if (problems.length !== 0) throw new Error(`Invalid passphrase. ${problems.join(' ')}`);
};
