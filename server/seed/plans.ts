/**
 * The demo's projects as plans: each group project, its children (country, LOI, IR, CPI, sample),
 * the days their field work ran, how many respondents a day, the status each has today, their
 * suppliers, security settings, pre-screen questions, quotas and multi-link lists. The seed makes
 * them through the projects domain (server/seed/projects.ts) and sends the traffic
 * (server/seed/respondents.ts).
 */
import { PROJECT_STATUS, type ProjectStatus } from "../../shared/status.ts";

export const DAY = 86_400_000;

export type ChildPlan = {
  name: string;
  country: string;
  language?: string;
  loi: number;
  ir: number;
  cpi: number;
  sampleSize: number;
  /** Days ago the field work started and ended (0 = still running). */
  from: number;
  to: number;
  perDay: number;
  /** Final status after the field work. */
  status: ProjectStatus;
  suppliers: number[];
  security?: Record<string, unknown>;
  /** Pre-screen questions (the project then pre-screens): titles per language, options, disqualifying ones. */
  questions?: { title: Record<string, string>; options: string[]; bad?: string[] }[];
  /** Quotas on demo qualifications: the chosen options' sizes, by option text. */
  quotas?: { qualification: string; sizes: Record<string, number> }[];
  /** A multi-link project: this many client links, each handed to one respondent. */
  multiLinks?: number;
  /** Share of those sent to the survey who complete. */
  completeRate: number;
};

export type ParentPlan = {
  name: string;
  client: number;
  loi: number;
  ir: number;
  po?: string;
  children: ChildPlan[];
};

export const PLANS: ParentPlan[] = [
  {
    name: "Brand Health Tracker 2026",
    client: 0,
    loi: 15,
    ir: 45,
    children: [
      {
        name: "Brand Health US",
        country: "US",
        loi: 15,
        ir: 45,
        cpi: 3.5,
        sampleSize: 500,
        from: 88,
        to: 0,
        perDay: 14,
        status: PROJECT_STATUS.LIVE,
        suppliers: [0, 3],
        security: { isUniqueIp: true, maxIPCount: 2, isSpeeder: true, speedTime: 180 },
        // answers fill the Gender and Age quotas (matched by option text)
        questions: [
          { title: { en: "What is your gender?" }, options: ["Male", "Female", "Non-binary"] },
          {
            title: { en: "What is your age?" },
            options: ["Under 18", "18-24", "25-34", "35-44", "45-54", "55-64", "65+"],
            bad: ["Under 18"],
          },
        ],
        quotas: [
          { qualification: "Gender", sizes: { Male: 240, Female: 240, "Non-binary": 20 } },
          {
            qualification: "Age",
            sizes: { "18-24": 80, "25-34": 120, "35-44": 120, "45-54": 100, "55-64": 60, "65+": 20 },
          },
        ],
        completeRate: 0.4,
      },
      {
        name: "Brand Health Canada",
        country: "CA",
        loi: 15,
        ir: 40,
        cpi: 3.8,
        sampleSize: 200,
        from: 80,
        to: 0,
        perDay: 6,
        status: PROJECT_STATUS.LIVE,
        suppliers: [2],
        security: { isGeoLocation: true },
        completeRate: 0.38,
      },
    ],
  },
  {
    name: "Streaming Habits Study",
    client: 2,
    loi: 12,
    ir: 60,
    po: "PO-ALB-4471",
    children: [
      {
        name: "Streaming Habits UK",
        country: "GB",
        loi: 12,
        ir: 60,
        cpi: 2.9,
        sampleSize: 150,
        from: 85,
        to: 48,
        perDay: 12,
        status: PROJECT_STATUS.CLOSED,
        suppliers: [1, 5],
        security: { isGeoLocation: true, isProxyVpn: true },
        completeRate: 0.45,
      },
    ],
  },
  {
    name: "EV Purchase Intent",
    client: 3,
    loi: 20,
    ir: 25,
    po: "PO-RW-2026-118",
    children: [
      {
        name: "EV Intent Germany",
        country: "DE",
        language: "de",
        loi: 20,
        ir: 25,
        cpi: 6.5,
        sampleSize: 80,
        from: 70,
        to: 30,
        perDay: 9,
        status: PROJECT_STATUS.INVOICED,
        suppliers: [3, 5],
        questions: [
          {
            title: { en: "How old are you?", de: "Wie alt sind Sie?" },
            options: ["Under 18", "18-34", "35-54", "55 or older"],
            bad: ["Under 18"],
          },
          {
            title: { en: "Do you hold a driving licence?", de: "Haben Sie einen Führerschein?" },
            options: ["Yes", "No"],
            bad: ["No"],
          },
        ],
        completeRate: 0.3,
      },
    ],
  },
  {
    name: "Snack Concept Test",
    client: 1,
    loi: 10,
    ir: 55,
    children: [
      {
        name: "Snack Concept Canada",
        country: "CA",
        loi: 10,
        ir: 55,
        cpi: 2.4,
        sampleSize: 60,
        from: 40,
        to: 12,
        perDay: 10,
        status: PROJECT_STATUS.PAUSED,
        suppliers: [2, 0],
        security: { isMobile: false },
        completeRate: 0.5,
      },
    ],
  },
  {
    name: "Mobile Banking Experience",
    client: 7,
    loi: 18,
    ir: 35,
    children: [
      {
        name: "Mobile Banking India",
        country: "IN",
        loi: 18,
        ir: 35,
        cpi: 1.6,
        sampleSize: 250,
        from: 30,
        to: 0,
        perDay: 16,
        status: PROJECT_STATUS.LIVE,
        suppliers: [4, 6],
        security: { isTablet: false, isUniqueIp: true, maxIPCount: 1 },
        completeRate: 0.42,
      },
      {
        name: "Mobile Banking Singapore",
        country: "SG",
        loi: 18,
        ir: 30,
        cpi: 4.2,
        sampleSize: 50,
        from: 25,
        to: 0,
        perDay: 4,
        status: PROJECT_STATUS.LIVE,
        suppliers: [6],
        // the client sent a list of unique survey links
        multiLinks: 150,
        completeRate: 0.35,
      },
    ],
  },
  {
    name: "Grocery Delivery Habits",
    client: 4,
    loi: 10,
    ir: 65,
    po: "PO-GDH-2026-07",
    children: [
      {
        name: "Grocery Delivery France",
        country: "FR",
        language: "fr",
        loi: 10,
        ir: 65,
        cpi: 2.2,
        sampleSize: 90,
        from: 62,
        to: 36,
        perDay: 8,
        // reconciled, then Proceed to Invoice: waits in Accounts' Ready To Invoice tab
        status: PROJECT_STATUS.READY_TO_INVOICE,
        suppliers: [5, 3],
        completeRate: 0.5,
      },
    ],
  },
  {
    name: "Summer Beverage Tracker",
    client: 6,
    loi: 8,
    ir: 70,
    po: "PO-SBT-0412",
    children: [
      {
        name: "Summer Beverage Australia",
        country: "AU",
        loi: 8,
        ir: 70,
        cpi: 1.9,
        sampleSize: 70,
        from: 89,
        to: 66,
        perDay: 7,
        // reconciled, then Archieve on the reconcile screen: Accounts' Archieved tab
        status: PROJECT_STATUS.ARCHIEVED,
        suppliers: [7, 0],
        completeRate: 0.5,
      },
    ],
  },
  {
    name: "Travel Intentions Winter",
    client: 6,
    loi: 14,
    ir: 50,
    children: [
      {
        name: "Travel Intentions Australia",
        country: "AU",
        loi: 14,
        ir: 50,
        cpi: 4.8,
        sampleSize: 100,
        from: 0,
        to: 0,
        perDay: 0,
        status: PROJECT_STATUS.TESTING,
        suppliers: [7],
        completeRate: 0.4,
      },
    ],
  },
];
