/** Thrown when the person at the terminal presses Ctrl-C at a prompt; the CLI exits with 130 as shells do on SIGINT. */
export class PromptAborted extends Error {
  readonly exitCode = 130;
  constructor() {
    super('Aborted (Ctrl-C): nothing was done.');
    this.name = 'PromptAborted';
  }
}
