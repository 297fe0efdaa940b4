/**
 * Respondent profiles in the browser: the Suppliers list's Profile Settings sets how long known answers
 * count (a bad value is refused on the form), and a supplier's edit page erases one member's answers.
 */
import { assertEquals } from "../helpers/assert.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { apiOf, e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";

Deno.test(e2e("profiles: staff set the answers' expiry and erase one member's known answers", async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const admin = await server.user("SUPERADMIN");
    const supplier = await makeSupplier(apiOf(server));
    const db = server.deps.db;
    const at = new Date().toISOString();
    const row = (memberId: string, questionId: string) => ({
      supplierId: supplier._id,
      memberId,
      questionId,
      answer: '["a1"]',
      answeredAt: at,
      source: "prescreen" as const,
    });
    await db.insertInto("member_profiles").values([row("m-1", "q1"), row("m-1", "q2"), row("m-2", "q1")])
      .execute();
    const { context, page, errors } = await newPage(browser, server.url);
    await signIn(page, admin.email);

    await page.goto(`${server.url}/admin/supplier`);
    await page.getByRole("button", { name: "Profile Settings" }).click();
    const days = page.getByRole("textbox", { name: /Profile answers expire after/ });
    await days.waitFor();
    assertEquals(await days.inputValue(), "90", "the default shows");
    await days.fill("0");
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator('input[aria-invalid="true"]').first().waitFor(); // refused on the form
    assertEquals(await days.isVisible(), true, "a value out of range keeps the dialog open");
    await days.fill("45");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByTestId("notice").filter({ hasText: "Profile settings saved" }).waitFor();
    const saved = await db.selectFrom("settings").select("value").where("key", "like", "%profile%")
      .executeTakeFirst();
    assertEquals(saved?.value, "45");

    await page.goto(`${server.url}/admin/supplier/${supplier._id}/edit`);
    await page.getByRole("button", { name: "Erase Member Profile" }).click();
    await page.getByRole("textbox", { name: "Member id" }).fill("m-1");
    await page.getByRole("button", { name: "Erase", exact: true }).click();
    await page.getByTestId("notice").filter({ hasText: "Erased 2 known answer(s) of member m-1" }).waitFor();
    const left = await db.selectFrom("member_profiles").select("memberId").where(
      "supplierId",
      "=",
      supplier._id,
    )
      .execute();
    assertEquals(left.map((r) => r.memberId), ["m-2"], "only that member's answers go");
    assertEquals(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}));
