/** What the accounts contracts share: the day format of their CSV columns, the Upload Ref. No. result. */

/** A day (yyyy-mm-dd) as the CSV exports write it (dd/mm/yyyy; "" for none). */
export const dmy = (
  iso: string | null,
) => (iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : "");

/**
 * What an Upload Ref. No. did: how many records it changed, the codes of its rows, and those
 * already Paid whose reference it replaced (only with `overwrite`).
 */
export type RefUploadResult = { updated: number; codes: string[]; overwritten: string[] };
