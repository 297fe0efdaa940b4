/**
 * Accounts in the browser: a Ready To Invoice project is invoiced from its row (Generate Invoice
 * with the client and the project line filled in), the invoice is marked paid on its status edit,
 * and its PDF downloads as Invoice#{code}.pdf with the invoice's text in it.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import type { TestApp } from "../helpers/app.ts";
import { makeClient, readyProject } from "../helpers/accounts.ts";
import type { Role } from "../../shared/roles.ts";
import { e2e, E2E_PASSWORD, type E2eServer, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";

/** The API fixtures' view of the e2e server (calls over HTTP, users made by the server). */
function fixtures(server: E2eServer): TestApp {
  const tokens = new Map<string, string>();
  const call = async (method: string, path: string, opts: { body?: unknown; token?: string | null } = {}) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: {
        "content-type": "application/json",
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: res.status, json, text, headers: res.headers };
  };
  const userWith = async (role: Role) => {
    const u = await server.user(role);
    const r = await call("POST", "/admin/login", { body: { email: u.email, password: E2E_PASSWORD } });
    return { id: u._id, token: r.json.result.accessToken as string, email: u.email };
  };
  const tokenFor = async (role: Role) => {
    if (!tokens.has(role)) tokens.set(role, (await userWith(role)).token);
    return tokens.get(role)!;
  };
  return { deps: server.deps, call, userWith, tokenFor } as unknown as TestApp;
}

Deno.test(
  e2e(
    "accounts: generate an invoice for a Ready To Invoice project, mark it paid, download its PDF",
    async (t) => {
      const server = await startServer();
      const browser = await launchBrowser();
      try {
        const f = fixtures(server);
        const accountant = await server.user("ACCOUNTANT");
        const client = await makeClient(f, { clientName: "Lumen Analytics", netDays: "30" });
        const project = await readyProject(f, { clientId: client._id, complete: 120, cpi: 2.5 });
        const { page, errors } = await newPage(browser, server.url);
        await signIn(page, accountant.email);

        let invoiceId = "";
        await t.step(
          "Ready To Invoice lists the project; Generate Invoice fills in the client and the line",
          async () => {
            await page.goto("/admin/invoice");
            const row = page.getByTestId("data-grid").locator(`tr[data-row-id="${project._id}"]`);
            await row.waitFor();
            assert((await row.textContent())?.includes("$300.00"), await row.textContent() ?? "");
            await row.getByRole("button", { name: "Row actions" }).click();
            await page.getByRole("menuitem", { name: "Generate Invoice" }).click();
            await page.getByTestId("bill-to").getByText("Lumen Analytics").waitFor();
            await page.getByTestId("invoice-line").first().waitFor();
            assertEquals(await page.getByLabel("Invoice code").inputValue(), "INV10001");
            assertEquals(await page.getByLabel("Net terms").inputValue(), "30");
            // dates read dd/MM/yyyy (the kit's DateInput), not the browser's mm/dd/yyyy; due = date + 30 days
            const dayOf = (s: string) => {
              const m = s.match(/^(\d{2})\/(\d{2})\/(\d{4})$/);
              assert(m, `dd/MM/yyyy: ${s}`);
              return Date.UTC(+m[3], +m[2] - 1, +m[1]);
            };
            const date = await page.getByRole("textbox", { name: "Date", exact: true }).inputValue();
            const due = await page.getByRole("textbox", { name: "Due date", exact: true }).inputValue();
            assertEquals((dayOf(due) - dayOf(date)) / 86_400_000, 30);
            await page.getByTestId("grand-total").getByText("$300.00").waitFor();
            // the total follows complete x CPI, and can be typed
            await page.getByLabel("CPI", { exact: true }).fill("3");
            await page.getByTestId("grand-total").getByText("$360.00").waitFor();
            await page.getByLabel("Total", { exact: true }).fill("350");
            await page.getByTestId("grand-total").getByText("$350.00").waitFor();
            const download = page.waitForEvent("download");
            await page.getByRole("button", { name: "Submit" }).click();
            assertEquals((await download).suggestedFilename(), "Invoice#INV10001.pdf");
            await page.waitForURL("**/admin/invoice/list");
            const inv = await server.deps.db.selectFrom("invoices").select(["id", "total"])
              .executeTakeFirstOrThrow();
            assertEquals(inv.total, 350);
            invoiceId = inv.id;
          },
        );

        await t.step("the project's own invoice page opens the invoice that bills it", async () => {
          await page.goto(`/admin/invoice/${project._id}/edit`);
          await page.waitForURL(`**/admin/invoice/generate/${invoiceId}/edit`);
          await page.getByTestId("bill-to").getByText("Lumen Analytics").waitFor();
          await page.goto("/admin/invoice/list");
        });

        await t.step("the status edit marks it Paid with its reference", async () => {
          const row = page.getByTestId("data-grid").locator(`tr[data-row-id="${invoiceId}"]`);
          await row.getByRole("button", { name: "Row actions" }).click();
          await page.getByRole("menuitem", { name: "Edit Status" }).click();
          await page.waitForURL(`**/admin/invoice/status/${invoiceId}/edit`);
          await page.getByRole("button", { name: "Submit" }).click();
          await page.getByText("Reference is required").waitFor();
          await page.getByLabel("Reference Number").fill("UTR-4242");
          const received = page.getByRole("textbox", { name: "Received Date", exact: true });
          await received.fill("05/01/2027");
          await received.press("Tab");
          assertEquals(await received.inputValue(), "05/01/2027");
          await page.getByRole("combobox", { name: "Status" }).click();
          await page.getByRole("option", { name: "Paid" }).click();
          await page.getByRole("button", { name: "Submit" }).click();
          await page.waitForURL("**/admin/invoice/list");
          const paid = page.getByTestId("data-grid").locator(`tr[data-row-id="${invoiceId}"]`);
          await paid.getByText("Paid").waitFor();
          await paid.getByText("05/01/2027").waitFor();
        });

        await t.step("Download PDF saves Invoice#INV10001.pdf with the invoice's text", async () => {
          const row = page.getByTestId("data-grid").locator(`tr[data-row-id="${invoiceId}"]`);
          await row.getByRole("button", { name: "Row actions" }).click();
          const download = page.waitForEvent("download");
          await page.getByRole("menuitem", { name: "Download PDF" }).click();
          const file = await download;
          assertEquals(file.suggestedFilename(), "Invoice#INV10001.pdf");
          const path = await file.path();
          const out = await new Deno.Command("pdftotext", { args: ["-layout", path, "-"] }).output();
          const text = new TextDecoder().decode(out.stdout);
          for (const s of ["INV10001", "Lumen Analytics", project.projectCode, "$350.00", "UTR-4242"]) {
            assert(text.includes(s), `PDF lacks ${s}:\n${text}`);
          }
          assertMatch(text, /Paid/);
        });
        assertEquals(errors, []);
      } finally {
        await browser.close();
        await server.close();
      }
    },
  ),
);
