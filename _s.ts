import { startSqld } from "./tests/helpers/sqld.ts";
import { testApp } from "./tests/helpers/app.ts";
const t0 = performance.now();
await using s = await startSqld();
console.log("started", performance.now() - t0, s.url);
const t = await testApp({ DATABASE_URL: s.url });
console.log("app ready", performance.now() - t0);
const admin = await t.tokenFor("SUPERADMIN");
console.log("login ok", performance.now() - t0);
const r = await t.call("POST", "/admin/user/add", {
  token: admin,
  body: { firstName: "Jonathan", lastName: "Smith", email: "j@x.com", password: "1234567", role: "ADMIN" },
});
console.log(r.status, r.text.slice(0, 200));
const dup = await t.call("POST", "/admin/user/add", {
  token: admin,
  body: { firstName: "Jonathan", lastName: "Smith", email: "j@x.com", password: "1234567", role: "ADMIN" },
});
console.log(dup.status, dup.text.slice(0, 200));
const l = await t.call("POST", "/admin/users", { token: admin, body: { search: "jon" } });
console.log(l.status, l.text.slice(0, 300));
const out = await t.call("POST", "/admin/logout", { token: admin });
console.log(out.status, (await t.call("GET", "/admin/me", { token: admin })).status);
await t.close();
console.log("done", performance.now() - t0);
