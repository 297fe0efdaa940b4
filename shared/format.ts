/** Formats shared by the server's exports and the web app. */

/** A money amount as a CSV cell: two decimals, no currency sign (spreadsheets read it as a number). */
export const moneyCell = (n: number) => n.toFixed(2);

/** "1 option", "3 options": a count with its noun in the right number. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
