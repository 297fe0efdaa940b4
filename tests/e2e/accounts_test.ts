/**
 * Accounts in the browser: a Ready To Invoice project is invoiced from its row (Generate Invoice
 * with the client and the project line filled in with its approved count, a warning when the line
 * bills another), the invoice is marked paid on its status edit, and its PDF downloads as
 * Invoice#{code}.pdf with the invoice's text in it; Upload Ref. No. asks before replacing a Paid
 * reference; Finances exports a supplier's maps as CSV.
 */
import { Buffer } from "node:buffer";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { makeClient, makeSupplier, readyProject } from "../helpers/accounts.ts";
import { apiOf, e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";

Deno.test(
  e2e(
    "accounts: generate an invoice for a Ready To Invoice project, mark it paid, download its PDF",
    async (t) => {
      const server = await startServer();
      const browser = await launchBrowser();
      try {
        const f = apiOf(server);
        const accountant = await server.user("ACCOUNTANT");
        const client = await makeClient(f, { clientName: "Lumen Analytics", netDays: "30" });
        const supplier = await makeSupplier(f, { supplierName: "Northwind Panel", supplierShortCode: "NWP" });
        // 120 completes, 112 of them approved by the client (and paid to the supplier)
        const project = await readyProject(f, {
          clientId: client._id,
          complete: 120,
          approved: 112,
          cpi: 2.5,
          supplier: { _id: supplier._id, approved: 112, supplierCPI: 1 },
        });
        const { page, errors } = await newPage(browser, server.url);
        await signIn(page, accountant.email);

        let invoiceId = "";
        await t.step(
          "Ready To Invoice lists the project; Generate Invoice fills in the client and the line",
          async () => {
            await page.goto("/admin/invoice");
            const row = page.getByTestId("data-grid").locator(`tr[data-row-id="${project._id}"]`);
            await row.waitFor();
            // the total is the approved 112 x $2.50, not the 120 completes
            assert((await row.textContent())?.includes("$280.00"), await row.textContent() ?? "");
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
            assertEquals(await page.getByLabel("Complete", { exact: true }).inputValue(), "112");
            await page.getByTestId("grand-total").getByText("$280.00").waitFor();
            assertEquals(await page.getByTestId("approval-warning").count(), 0);
            // billing the 120 completes is allowed, with the difference shown before saving
            await page.getByLabel("Complete", { exact: true }).fill("120");
            await page.getByTestId("approval-warning").getByText("112 approved (+8)").waitFor();
            await page.getByTestId("approval-summary").getByText("1 line bills other than the approved count")
              .waitFor();
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
          for (const s of ["INV10001", "Lumen Analytics", project.projectCode, "$350.00"]) {
            assert(text.includes(s), `PDF lacks ${s}:\n${text}`);
          }
          // the client's copy: its payment state (Paid, the payment reference) stays in Samplex
          assert(!/\bPaid\b|UTR-4242/.test(text), `the PDF shows the payment state:\n${text}`);
        });

        await t.step(
          "Upload Ref. No. names the Paid invoice it would change; overwrites only when asked",
          async () => {
            await page.getByRole("button", { name: "Upload Ref. No." }).click();
            await page.getByLabel("CSV file").setInputFiles({
              name: "refs.csv",
              mimeType: "text/csv",
              buffer: Buffer.from("INV10001,UTR-5000,06/01/2027\n"),
            });
            await page.getByText("1 row read from refs.csv").waitFor();
            await page.getByRole("button", { name: "Upload", exact: true }).click();
            const refused = page.getByTestId("paid-refused");
            await refused.getByText(
              'Line 1: INV10001 is already Paid (reference "UTR-4242", received 05/01/2027)',
            )
              .waitFor();
            const row = page.getByTestId("data-grid").locator(`tr[data-row-id="${invoiceId}"]`);
            await row.getByText("UTR-4242").waitFor();
            await page.getByRole("button", { name: "Overwrite and upload" }).click();
            await refused.waitFor({ state: "detached" });
            await row.getByText("UTR-5000").waitFor();
            await row.getByText("06/01/2027").waitFor();
          },
        );

        await t.step("Finances exports the supplier's maps as CSV; its page names the supplier", async () => {
          await page.goto("/admin/invoice/supplier");
          const row = page.getByTestId("data-grid").locator(`tr[data-row-id="${supplier._id}"]`);
          await row.getByText("Northwind Panel").waitFor();
          await row.getByRole("button", { name: "Row actions" }).click();
          const download = page.waitForEvent("download");
          await page.getByRole("menuitem", { name: "Export supplier map" }).click();
          const file = await download;
          assertMatch(file.suggestedFilename(), /^supplier-map-NWP-\d{4}-\d{2}-\d{2}\.csv$/);
          const csv = (await Deno.readTextFile(await file.path())).replace(/^\uFEFF/, "").split("\r\n");
          assertMatch(csv[0], /^Supplier name,Supplier map ID,Project code,/);
          assert(
            csv[1].startsWith("Northwind Panel,") && csv[1].includes(`,${project.projectCode}-01,`),
            csv[1],
          );
          assert(csv[1].endsWith(",1.00,112,112.00,"), csv[1]);
          await page.goto(`/admin/invoice/supplier/${supplier._id}/list`);
          await page.getByRole("heading", { name: "Supplier projects: Northwind Panel" }).waitFor();
          await page.getByRole("combobox", { name: "Supplier" }).getByText("Northwind Panel").waitFor();
        });
        assertEquals(errors, []);
      } finally {
        await browser.close();
        await server.close();
      }
    },
  ),
);
