/** How a long migration reports its steps: one step at a time, each with a known total of units (or none). */
export interface Progress {
  step(label: string, total?: number): ProgressStep;
}

export interface ProgressStep {
  tick(units?: number): void;
  done(): void;
}

export const SILENT_PROGRESS: Progress = { step: () => ({ tick: () => undefined, done: () => undefined }) };
