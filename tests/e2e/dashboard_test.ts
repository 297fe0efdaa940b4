/**
 * The dashboard in the built SPA over the demo data (90 days of traffic through the real router):
 * cards and charts with data, a period switch changing the series, Today Completed's dialog linking
 * to its projects, and the Today card moving when a respondent completes (the live stream).
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { e2e, launchBrowser, newPage, pathOf, signIn, startServer } from "./helpers.ts";
import { seedDemo } from "../../server/seed/seed.ts";
import { projectSecret } from "../../server/domain/router/config.ts";
import { returnSignature } from "../../server/domain/router/links.ts";

Deno.test(
  e2e(
    "dashboard: cards, manager table and charts with 90 days of data; periods; Today dialogs; live",
    async (t) => {
      const server = await startServer();
      const browser = await launchBrowser();
      try {
        await seedDemo(server.deps);
        const admin = await server.user("ADMIN");
        const { context, page, errors } = await newPage(browser, server.url);
        await signIn(page, admin.email);
        assertEquals(pathOf(page), "/admin/dashboard");

        await t.step("every card shows a figure, shortened or in dollars", async () => {
          const total = page.getByTestId("card-totalCompleted-value");
          await total.waitFor();
          assertMatch(await total.textContent() ?? "", /^[1-9][\d.]*k?$/);
          assertMatch(
            await page.getByTestId("card-monthlyRevenue-value").textContent() ?? "",
            /^\$[1-9][\d,]*\.\d{2}$/,
          );
          assertMatch(
            await page.getByTestId("card-monthlyExpense-value").textContent() ?? "",
            /^\$[1-9][\d,]*\.\d{2}$/,
          );
          // the demo invoices one of its projects: the card is this month's client invoices, to the cent
          const monthStart = new Date().toISOString().slice(0, 7);
          const invoiced = await server.deps.db.selectFrom("invoices").select("total")
            .where("isDeleted", "=", 0).where("currentDate", ">=", monthStart).execute();
          const sum = invoiced.reduce((s, r) => s + r.total, 0);
          assertEquals(
            await page.getByTestId("card-monthlyInvoice-value").textContent(),
            `$${sum.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
          );
          for (
            const id of [
              "card-monthCompleted-value",
              "card-totalProjects-value",
              "card-revenueClosedInvoice-value",
            ]
          ) {
            assertMatch(await page.getByTestId(id).textContent() ?? "", /[1-9]/, id);
          }
          const rows = page.getByTestId("manager-table").locator("tbody tr");
          await rows.first().waitFor();
          assert(await rows.count() >= 1);
        });

        await t.step("the seven charts draw their series; a period switch changes them", async () => {
          const charts = page.getByTestId("bar-chart");
          await page.waitForFunction(() =>
            document.querySelectorAll("[data-testid=bar-chart] canvas").length === 7
          );
          assertEquals(await charts.count(), 7);
          const traffic = page.getByTestId("chart-traffic");
          const figure = traffic.getByTestId("bar-chart");
          assertEquals(await figure.getAttribute("data-points"), "30");
          const daily = await figure.locator("[role=img]").getAttribute("aria-label") ?? "";
          assertMatch(daily, /Traffic [1-9]/, "the last 30 days have traffic");
          await traffic.getByRole("button", { name: "Monthly" }).click();
          await traffic.locator("[data-testid=bar-chart][data-points='12']").waitFor();
          const monthly = await traffic.locator("[role=img]").getAttribute("aria-label") ?? "";
          assert(monthly !== daily, `the series changed: ${monthly}`);
          assertEquals(
            await traffic.getByRole("button", { name: "Monthly" }).getAttribute("aria-pressed"),
            "true",
          );
          await traffic.getByRole("button", { name: "Yearly" }).click();
          await traffic.locator("[data-testid=bar-chart][data-points='5']").waitFor();
          // the revenue chart over 90 days: expected revenue in dollars
          const revenue = page.getByTestId("chart-revenue");
          await revenue.getByRole("button", { name: "Monthly" }).click();
          await revenue.locator("[data-testid=bar-chart][data-points='12']").waitFor();
          assertMatch(
            await revenue.locator("[role=img]").getAttribute("aria-label") ?? "",
            /Expected \$[1-9]/,
          );
        });

        await t.step(
          "charts read right: no clipped label, whole ticks for counts, a second axis, legends filled",
          async () => {
            // monthly revenue reaches thousands of dollars: its labels are the widest
            await page.getByTestId("chart-revenue-expense").getByRole("button", { name: "Monthly" }).click();
            await page.getByTestId("chart-revenue-expense").locator("[data-points='12']").waitFor();
            await page.waitForTimeout(300);
            // a label cut at the canvas' edge leaves drawn pixels in its outermost columns
            const edges = await page.evaluate(() =>
              [...document.querySelectorAll<HTMLCanvasElement>("[data-testid=bar-chart] canvas")].map((c) => {
                const ctx = c.getContext("2d")!;
                const { width, height } = c;
                const inked = (x: number) => {
                  const d = ctx.getImageData(x, 0, 2, height).data;
                  for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
                  return false;
                };
                const card = c.closest("[data-testid^=chart-]")?.getAttribute("data-testid") ?? "?";
                return { card, left: inked(0), right: inked(width - 2) };
              })
            );
            assertEquals(edges.length, 7);
            for (const e of edges) {
              assert(!e.left && !e.right, `a label is cut at an edge of ${e.card}: ${JSON.stringify(e)}`);
            }
            const ticks = (id: string, side: "left" | "right") =>
              page.getByTestId(id).getByTestId("bar-chart").getAttribute(`data-${side}-ticks`);
            for (const id of ["chart-status", "chart-traffic", "chart-security"]) {
              const t = (await ticks(id, "left")) ?? "";
              assert(t.length > 0, `${id} drew ticks`);
              for (const v of t.split(",")) assert(Number.isInteger(Number(v)), `${id}: a count tick ${v}`);
            }
            // the invoice chart: the amount on the left, the count of invoices on its own right axis
            const right = (await ticks("chart-invoice", "right")) ?? "";
            assert(right.length > 0, "the invoice count has its own axis");
            for (const v of right.split(",")) {
              assert(Number.isInteger(Number(v)), `an invoice count tick ${v}`);
            }
            // without a pointer on them, legends show the latest bucket's values
            const legends = await page.evaluate(() =>
              [...document.querySelectorAll("[data-testid=bar-chart] .u-legend")].map((l) =>
                [...l.querySelectorAll(".u-series:not(:first-child) .u-value")].map((v) =>
                  v.textContent ?? ""
                )
              )
            );
            assertEquals(legends.length, 7);
            for (const values of legends) {
              assert(
                values.length > 0 && values.every((v) => v.trim() !== "" && v.trim() !== "--"),
                values.join("|"),
              );
            }
          },
        );

        await t.step("Today Completed opens its dialog with links to the projects", async () => {
          const card = page.getByTestId("card-today-completed");
          const today = Number(await page.getByTestId("card-today-completed-value").textContent());
          await card.click();
          const dialog = page.getByRole("dialog", { name: "Today Completed" });
          await dialog.waitFor();
          const table = dialog.getByTestId("today-completed-table");
          if (today > 0) {
            await table.locator("tbody tr").first().waitFor();
          }
          // This Month always has completes in the demo
          await dialog.getByRole("combobox", { name: "Sort by" }).click();
          await page.getByRole("option", { name: "This Month" }).click();
          const link = table.locator("tbody tr").first().getByRole("link");
          await link.waitFor();
          const href = await link.getAttribute("href") ?? "";
          assertMatch(href, /^\/admin\/project\/[0-9a-f]{24}\/childs$/);
          assertMatch(
            await table.locator("tbody tr").first().locator("td").nth(4).textContent() ?? "",
            /^\$[\d,]+\.\d{2}$/,
          );
          await link.click();
          await page.waitForURL(`**${href}`);
          await page.goBack();
          await page.waitForURL("**/admin/dashboard");
          await page.getByTestId("card-today-security").click();
          await page.getByRole("dialog", { name: "Today Security" }).waitFor();
          await page.keyboard.press("Escape");
        });

        await t.step("a respondent's complete moves the Today card without a reload", async () => {
          await page.locator("[data-testid=live-mode][data-mode=live]").waitFor();
          const db = server.deps.db;
          const target = await db.selectFrom("supplier_maps as m").innerJoin(
            "projects as p",
            "p.id",
            "m.projectId",
          )
            // a client whose platform hands out the links (API integration) is no plain project
            .innerJoin("clients as c", "c.id", "p.clientId").where("c.isApiIntegration", "=", 0)
            .select(["m.id as mapId", "p.id as projectId"])
            .where("p.projectStatus", "=", 1).where("p.isPreScreen", "=", 0).where("m.isPreScreen", "=", 0)
            .where("p.isDesktop", "=", 1).where("p.isMultiLinkUrl", "=", 0)
            .where("p.isMultiLinkUrl", "=", 0).where("m.allowTraffic", "=", 1).where("m.isBoarded", "=", 1)
            .where("p.isDeleted", "=", 0).where("m.isDeleted", "=", 0)
            .executeTakeFirst();
          assert(target, "the demo has a plain live project");
          const before = await page.getByTestId("card-today-completed-value").textContent();
          const entry = await fetch(`${server.url}/survey/start/${target.mapId}?sid=e2e-live-1`, {
            redirect: "manual",
            headers: {
              "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36",
            },
          });
          await entry.body?.cancel();
          const location = entry.headers.get("location") ?? "";
          const uid = [...new URL(location).searchParams.values()].find((v) => /^[0-9a-f]{24}$/.test(v));
          assert(uid, `sent to the client's survey: ${location}`);
          const sig = returnSignature(await projectSecret(db, target.projectId), uid, "c");
          const end = await fetch(`${server.url}/survey/end?status=c&uid=${uid}&sig=${sig}`, {
            redirect: "manual",
          });
          await end.body?.cancel();
          await page.waitForFunction(
            (b) => document.querySelector("[data-testid=card-today-completed-value]")?.textContent !== b,
            before,
          );
        });

        assertEquals(errors, []);
        await context.close();
      } finally {
        await browser.close();
        await server.close();
      }
    },
  ),
);
