/** Formats shared by the server's exports and the web app. */

/** A money amount as a CSV cell: two decimals, no currency sign (spreadsheets read it as a number). */
export const moneyCell = (n: number) => n.toFixed(2);
