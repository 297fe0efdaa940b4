import { assertEquals } from "../helpers/assert.ts";
import {
  expiryDays,
  knownAnswer,
  LINK_MAX_PARAMS,
  linkAnswers,
  PROFILE_EXPIRY_DEFAULT_DAYS,
} from "../../server/domain/router/profiles.ts";
import type { PrescreenQuestion } from "../../server/domain/router/config.ts";

const id = (n: number) => n.toString(16).padStart(24, "0");

Deno.test("profiles: link answers are read as q_<library question id>=<ids>, bounded, malformed ones left out", () => {
  const params = new URLSearchParams();
  params.append("sid", "m1");
  params.append(`q_${id(1)}`, "a, b");
  params.append(`q_${id(2)}`, "");
  params.append(`q_${id(3)}`, "x".repeat(501));
  params.append(`q_${id(4)}`, Array.from({ length: 21 }, (_, i) => `o${i}`).join(","));
  params.append(`q_${id(5)}`, "bad\u0000value");
  params.append("q_XYZ", "a");
  params.append(`Q_${id(6)}`, "a");
  assertEquals([...linkAnswers(params)], [[id(1), ["a", "b"]]]);

  const many = new URLSearchParams();
  for (let i = 0; i < LINK_MAX_PARAMS + 10; i++) many.append(`q_${id(i)}`, "a");
  assertEquals(linkAnswers(many).size, LINK_MAX_PARAMS);
});

Deno.test("profiles: a known answer stands for a question only with visible options (one for a single choice)", () => {
  const q: PrescreenQuestion = {
    id: "p1",
    type: "RADIO",
    title: { en: "Age" },
    languageId: "en",
    libraryId: "L1",
    options: [
      { _id: "o1", title: "Yes", enable: true, formvalidate: true, diy: true, local: true },
      { _id: "o2", title: "No", enable: true, formvalidate: false, diy: true, local: true },
      { _id: "o3", title: "Off", enable: false, formvalidate: true, diy: true, local: true },
    ],
  };
  const known = (v: string[]) => new Map([["L1", v]]);
  assertEquals(knownAnswer(q, 1, known(["o2"])), ["o2"]);
  assertEquals(knownAnswer(q, 1, known(["o1", "o2"])), null, "two answers to a single choice");
  assertEquals(knownAnswer(q, 1, known(["o3"])), null, "a hidden option");
  assertEquals(knownAnswer(q, 1, known(["zz"])), null, "an unknown answer id");
  assertEquals(knownAnswer({ ...q, libraryId: null }, 1, known(["o1"])), null, "not a library question");
  assertEquals(knownAnswer({ ...q, type: "CHECKBOX" }, 1, known(["o1", "o2"])), ["o1", "o2"]);
  assertEquals(knownAnswer({ ...q, type: "TEXT", options: [] }, 1, known(["  75001 "])), ["75001"]);
  assertEquals([expiryDays(undefined), expiryDays("30"), expiryDays("0"), expiryDays("x")], [
    PROFILE_EXPIRY_DEFAULT_DAYS,
    30,
    PROFILE_EXPIRY_DEFAULT_DAYS,
    PROFILE_EXPIRY_DEFAULT_DAYS,
  ]);
});
