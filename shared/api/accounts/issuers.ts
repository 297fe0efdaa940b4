/** The issuing companies (part 2, 7 "Accounts"): the legal entities invoices and POs come from. */
import * as v from "valibot";
import { defineCall, returns } from "../contract.ts";
import { IssuingCompanyForm } from "../../schemas/accounts.ts";

/** A legal entity invoices and purchase orders come from, with its bank details (SUPERADMIN edits). */
export type IssuingCompany = {
  _id: string;
  /** The client account marker (wolfAccount) that picks this entity; "" for the default entity. */
  accountMarker: string;
  companyName: string;
  address: string;
  email: string;
  phone: string;
  taxNumber: string;
  /** Tax lines printed under an invoice's subtotal, one per line: "GST 18%" (a rate) or a note. */
  taxLines: string;
  serviceDescription: string;
  /** Beneficiary bank details for US payments, with the further-credit instructions. */
  bankUs: string;
  /** Beneficiary bank details for international payments, with the further-credit instructions. */
  bankInternational: string;
  updatedAt: string;
};

export const issuingCompaniesCall = defineCall({
  method: "GET",
  path: "/admin/issuing-companies",
  result: returns<IssuingCompany[]>(),
});
export const updateIssuingCompanyCall = defineCall({
  method: "PUT",
  path: "/admin/issuing-company/update/:id",
  ids: { id: "Issuing company" },
  body: IssuingCompanyForm,
  result: returns<IssuingCompany>(),
});

/** Issuing company ids are record ids; kept here so the edit screen needs no other import. */
export const IssuingCompanyId = v.pipe(v.string(), v.regex(/^[0-9a-f]{24}$/));
