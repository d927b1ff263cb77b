/**
 * Passphrases and passwords the CLI asks for when no flag gives them, as Klayr Core's CLI asks (its reader's
 * getPassphraseFromPrompt / getPasswordFromPrompt): "Please enter passphrase: ", then "Please re-enter
 * passphrase: " where the secret is new (it will encrypt something or become keys). On a terminal the secret is
 * typed hidden; piped input gives the same answers as lines, in the same order.
 */
import { assertValidPassphrase } from '../../lib/crypto/passphrase_rules.js';
import { SecretReader } from './secret_input.js';

export { PromptAborted } from './prompt_aborted.js';

let stdinReader: SecretReader | undefined;
/** One reader over standard input for the whole process, so that piped lines are taken in order. */
const standardInput = (): SecretReader => {
  stdinReader ??= new SecretReader(process.stdin, process.stderr);
  return stdinReader;
};

interface Ask {
  /** what is asked for, as the prompt names it: "passphrase", "password" */
  what: string;
  /** the flag that gives it instead, for the error when none is typed */
  flag: string;
  /** ask a second time, and refuse when the two differ */
  confirm: boolean;
  question?: string;
  /** checked before the confirmation, so that a bad secret is not typed twice */
  check?: (secret: string) => void;
}

const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

const ask = async (reader: SecretReader, o: Ask): Promise<string> => {
  const missing = reader.interactive
    ? `No ${o.what} given (type it when asked, or give ${o.flag}).`
    : `No ${o.what} given: standard input ended before it (give it as a line on standard input, or with ${o.flag}).`;
  const secret = await reader.readLine(o.question ?? `Please enter ${o.what}: `);
  if (secret === undefined || secret === '') throw new Error(missing);
  o.check?.(secret);
  if (!o.confirm) return secret;
  const again = await reader.readLine(`Please re-enter ${o.what}: `);
  if (again === undefined)
    throw new Error(
      reader.interactive
        ? `The ${o.what} was not confirmed: type it a second time when asked.`
        : `The ${o.what} was not confirmed: standard input ended after it (a ${o.what} asked for twice is given on two lines).`,
    );
  if (again !== secret) throw new Error(`${capitalized(o.what)}s do not match.`);
  return secret;
};

/**
 * The passphrase from --passphrase, or asked for (a second time with `confirm`, as Klayr Core's keys:create
 * does); either way, unless `anyText`, it must keep Klayr's passphrase rules (lib/crypto/passphrase_rules.ts)
 * or this throws an error that says what is wrong.
 */
export const readPassphrase = async (
  given: string | undefined,
  options: { confirm?: boolean; anyText?: boolean } = {},
  reader: SecretReader = standardInput(),
): Promise<string> => {
  // anyText: a legacy passphrase (message:sign), which Klayr Core takes as it is
  const check = options.anyText === true ? undefined : assertValidPassphrase;
  if (given !== undefined) {
    check?.(given);
    return given;
  }
  return ask(reader, { what: 'passphrase', flag: '--passphrase', confirm: options.confirm === true, check });
};

/** A password that will encrypt something: from --password (not empty), or asked for twice, both the same. */
export const readNewPassword = async (
  given: string | undefined,
  reader: SecretReader = standardInput(),
): Promise<string> => {
  if (given !== undefined) {
    if (given === '') throw new Error('The password is empty: give a password to encrypt with.');
    return given;
  }
  return ask(reader, { what: 'password', flag: '--password', confirm: true });
};

/** A password that decrypts something already encrypted: from --password, or asked for once. */
export const readPassword = async (
  given: string | undefined,
  options: { question?: string } = {},
  reader: SecretReader = standardInput(),
): Promise<string> => {
  if (given !== undefined) return given;
  return ask(reader, { what: 'password', flag: '--password', confirm: false, question: options.question });
};
