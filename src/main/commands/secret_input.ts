/**
 * Lines of secret input: on a terminal, typed with the echo off (raw mode; a `*` per character, backspace and
 * Ctrl-U erase, Ctrl-C aborts); otherwise (piped input) the next line of the input, in order.
 */
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { PromptAborted } from './prompt_aborted.js';

/** What a secret is read from: process.stdin, or in tests a stream that says it is a terminal. */
export type SecretSource = Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const BACKSPACE = '\u007f';
const CTRL_H = '\b';
const ESC = '\u001b';

/** The index just past an escape sequence (arrow keys, function keys) starting with ESC at `at`. */
const skipEscape = (text: string, at: number): number => {
  const next = text[at + 1];
  if (next === 'O') return Math.min(at + 3, text.length);
  if (next !== '[') return at + 1;
  let i = at + 2;
  // CSI: parameter and intermediate bytes (0x20-0x3f), then one final byte (0x40-0x7e)
  while (i < text.length && (text.charCodeAt(i) < 0x40 || text.charCodeAt(i) > 0x7e)) i++;
  return Math.min(i + 1, text.length);
};

type Outcome = { done: false } | { done: true; line: string | undefined } | { done: true; aborted: true };

export class SecretReader {
  /** text received and not consumed by a line yet (what a paste brings past the first Enter) */
  private pending = '';
  private ended = false;
  /** the last line ended with \r: a \n right after it is the rest of that line end */
  private afterCR = false;
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly input: SecretSource,
    private readonly output: Writable,
  ) {}

  private markEnded(): void {
    if (this.ended) return;
    this.ended = true;
    this.pending += this.decoder.end();
  }

  /** Whether input comes from a terminal (then the echo is turned off while a secret is typed). */
  get interactive(): boolean {
    return this.input.isTTY === true && typeof this.input.setRawMode === 'function';
  }

  /**
   * One line: on a terminal, typed after `question` with a `*` shown per character, nothing of the text itself;
   * otherwise the next line of the input, without a prompt. Undefined when the input ends (or Ctrl-D on an
   * empty line) before a line. Rejects with PromptAborted on Ctrl-C.
   */
  readLine(question: string): Promise<string | undefined> {
    const terminal = this.interactive;
    let typed = '';
    const takeLine = (): Outcome => {
      let i = 0;
      if (this.afterCR && this.pending !== '') {
        if (this.pending.startsWith('\n')) i = 1;
        this.afterCR = false;
      }
      while (i < this.pending.length) {
        const c = this.pending[i] ?? '';
        if (c === '\r' || c === '\n') {
          this.afterCR = c === '\r';
          this.pending = this.pending.slice(i + 1);
          return { done: true, line: typed };
        }
        if (!terminal) {
          typed += c;
          i++;
          continue;
        }
        if (c === CTRL_C) {
          this.pending = '';
          return { done: true, aborted: true };
        }
        if (c === CTRL_D && typed === '') {
          this.pending = this.pending.slice(i + 1);
          return { done: true, line: undefined };
        }
        if (c === ESC) {
          i = skipEscape(this.pending, i);
          continue;
        }
        if (c === BACKSPACE || c === CTRL_H) {
          if (typed !== '') {
            typed = Array.from(typed).slice(0, -1).join('');
            this.output.write('\b \b');
          }
        } else if (c === CTRL_U) {
          this.output.write('\b \b'.repeat(Array.from(typed).length));
          typed = '';
        } else if (c.charCodeAt(0) >= 0x20) {
          // one `*` per character typed, a surrogate pair counting once
          typed += c;
          if (!(c.charCodeAt(0) >= 0xdc00 && c.charCodeAt(0) <= 0xdfff)) this.output.write('*');
        }
        i++;
      }
      this.pending = '';
      if (this.ended) return { done: true, line: typed === '' && !terminal ? undefined : typed };
      return { done: false };
    };

    return new Promise((resolve, reject) => {
      const settle = (outcome: Outcome & { done: true }): void => {
        this.input.off('data', onData);
        this.input.off('end', onEnd);
        this.input.pause();
        if (terminal) {
          this.input.setRawMode?.(false);
          this.output.write('\n');
        }
        if ('aborted' in outcome) reject(new PromptAborted());
        else resolve(outcome.line);
      };
      const step = (): void => {
        const outcome = takeLine();
        if (outcome.done) settle(outcome);
      };
      const onData = (chunk: Buffer | string): void => {
        this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
        step();
      };
      const onEnd = (): void => {
        this.markEnded();
        step();
      };
      if (terminal) {
        this.output.write(question);
        this.input.setRawMode?.(true);
      }
      // the stream may have ended while no line was asked for (its 'end' comes without a listener then)
      if (this.input.readableEnded) this.markEnded();
      const outcome = takeLine();
      if (outcome.done) {
        settle(outcome);
        return;
      }
      this.input.on('data', onData);
      this.input.on('end', onEnd);
      this.input.resume();
    });
  }
}
