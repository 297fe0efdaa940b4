/** Human project codes from a sequence: parents P10001, P10002...; children <parent>-01, -02... */
import type { Db } from "../../db/connection.ts";

export async function nextSequence(db: Db, name: string, start: number): Promise<number> {
  const row = await db.insertInto("sequences").values({ name, value: start })
    .onConflict((oc) => oc.column("name").doUpdateSet((eb) => ({ value: eb("sequences.value", "+", 1) })))
    .returning("value").executeTakeFirstOrThrow();
  return row.value;
}

export async function nextParentCode(db: Db): Promise<string> {
  return `P${await nextSequence(db, "project", 10001)}`;
}

export async function nextChildCode(
  db: Db,
  parentCode: string,
  parentId: string,
): Promise<string> {
  const n = await nextSequence(db, `child:${parentId}`, 1);
  return `${parentCode}-${String(n).padStart(2, "0")}`;
}
