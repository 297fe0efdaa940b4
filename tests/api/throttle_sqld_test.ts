/**
 * The login throttle with several app instances on one libSQL server (sqld over HTTP): the attempt
 * is reserved in SQL, so instances racing on one e-mail still check at most the limit of passwords.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { TEST_PASSWORD, testApp } from "../helpers/app.ts";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";
import { THROTTLE } from "../../server/domain/auth/session.ts";
import * as Session from "../../shared/api/session.ts";

Deno.test({
  name: "sqld: 100 simultaneous wrong passwords through two instances check at most the limit",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    const a = await testApp({ DATABASE_URL: server.url, TRUST_PROXY_HOPS: "1" });
    const b = await testApp({ DATABASE_URL: server.url, TRUST_PROXY_HOPS: "1" });
    try {
      const { email } = await a.userWith("ADMIN");
      const statuses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          (i % 2 ? a : b).api(Session.loginCall, {
            body: { email, password: "wrong-pass" },
            headers: { "x-forwarded-for": "203.0.113.30" },
          }).then((r) => r.status)),
      );
      const checked = statuses.filter((s) => s === 401).length;
      assert(checked <= THROTTLE.max, `${checked} passwords were checked (limit ${THROTTLE.max})`);
      assertEquals(statuses.filter((s) => s === 429).length, 100 - checked);
      // the user, from their own address, is not locked out
      const own = await b.api(Session.loginCall, {
        body: { email, password: TEST_PASSWORD },
        headers: { "x-forwarded-for": "203.0.113.31" },
      });
      assertEquals(own.status, 200, own.text);
    } finally {
      await a.close();
      await b.close();
    }
  },
});
