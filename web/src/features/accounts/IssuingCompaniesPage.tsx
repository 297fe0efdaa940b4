/** /admin/invoice/companies (SUPERADMIN): the issuing companies' details and bank blocks. */
import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, callKey } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Input, Textarea } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import {
  issuingCompaniesCall,
  type IssuingCompany,
  updateIssuingCompanyCall,
} from "../../../../shared/api/accounts.ts";
import { ACCOUNT_TABS } from "./accounts.ts";

const FIELDS = [
  ["companyName", "Company name", false],
  ["address", "Address", true],
  ["email", "Email", false],
  ["phone", "Phone", false],
  ["taxNumber", "Tax number", false],
  ["taxLines", 'Tax lines (one per line: a rate such as "GST 18%", or a note)', true],
  ["serviceDescription", "Service description", true],
  ["bankUs", "Beneficiary bank details (US)", true],
  ["bankInternational", "Beneficiary bank details (International)", true],
] as const;

export default function IssuingCompaniesPage() {
  const q = useQuery({
    queryKey: callKey(issuingCompaniesCall),
    queryFn: async () => (await api(issuingCompaniesCall)).result,
  });
  return (
    <>
      <PageHeader
        title="Issuing companies"
        description="The entities invoices and purchase orders come from."
        tabs={ACCOUNT_TABS}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        {(q.data ?? []).map((c) => <CompanyCard key={c._id} company={c} />)}
      </div>
    </>
  );
}

function CompanyCard({ company }: { company: IssuingCompany }) {
  const qc = useQueryClient();
  const [form, setForm] = useState(company);
  const [busy, setBusy] = useState(false);
  useEffect(() => setForm(company), [company]);
  const save = async () => {
    setBusy(true);
    try {
      const { _id, accountMarker: _m, updatedAt: _u, ...body } = form;
      const res = await api(updateIssuingCompanyCall, { params: { id: _id }, body });
      notify.success(res.message);
      await qc.invalidateQueries({ queryKey: callKey(issuingCompaniesCall) });
    } catch {
      /* the notice says why */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {company.accountMarker ? `Clients marked ${company.accountMarker}` : "Default entity"}
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {FIELDS.map(([key, label, multi]) => (
          <div key={key} className="flex flex-col gap-1">
            <Label htmlFor={`${company._id}-${key}`}>{label}</Label>
            {multi
              ? (
                <Textarea
                  id={`${company._id}-${key}`}
                  rows={4}
                  value={form[key]}
                  onChange={(e) => setForm({ ...form, [key]: e.target.value })}
                />
              )
              : (
                <Input
                  id={`${company._id}-${key}`}
                  value={form[key]}
                  onChange={(e) => setForm({ ...form, [key]: e.target.value })}
                />
              )}
          </div>
        ))}
        <div className="flex justify-end">
          <Button loading={busy} onClick={() => void save()}>Save</Button>
        </div>
      </CardContent>
    </Card>
  );
}
