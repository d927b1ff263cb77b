/**
 * What Klayr Core's offline commands print without --json: the result as a two-column table in
 * double-line borders (klayr-commander's tablify over cli-table3), one row per field.
 */
const cellText = (value: unknown): string =>
  typeof value === 'object' && value !== null
    ? Object.entries(value)
        .map(([key, v]) => `${key}: ${JSON.stringify(v, undefined, ' ')}`)
        .join('\n')
    : String(value);

export const resultTable = (result: Record<string, unknown>): string => {
  const rows = Object.entries(result).map(([key, value]) => ({ key, lines: cellText(value).split('\n') }));
  const keyWidth = Math.max(...rows.map((row) => row.key.length)) + 2;
  const valueWidth = Math.max(...rows.flatMap((row) => row.lines.map((line) => line.length))) + 2;
  const rule = (left: string, fill: string, middle: string, right: string): string =>
    `${left}${fill.repeat(keyWidth)}${middle}${fill.repeat(valueWidth)}${right}`;
  const body = rows.map((row) =>
    row.lines
      .map((line, i) => `║ ${(i === 0 ? row.key : '').padEnd(keyWidth - 1)}│ ${line.padEnd(valueWidth - 1)}║`)
      .join('\n'),
  );
  return [rule('╔', '═', '╤', '╗'), body.join(`\n${rule('╟', '─', '┼', '╢')}\n`), rule('╚', '═', '╧', '╝')].join('\n');
};

/** Klayr Core's print: the table, or with --json the JSON (tab-indented with --pretty). */
export const printResult = (result: Record<string, unknown>, options: { json?: boolean; pretty?: boolean }): void => {
  process.stdout.write(
    `${options.json === true ? JSON.stringify(result, undefined, options.pretty === true ? '\t' : undefined) : resultTable(result)}\n`,
  );
};
