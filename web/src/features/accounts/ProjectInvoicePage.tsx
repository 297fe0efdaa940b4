/**
 * A project's invoice page (/admin/invoice/{projectid}/edit): the accountant lands on the invoice
 * that bills the project, ready to edit, or, when none does yet, on Generate Invoice with the
 * project's client and the project chosen. An unknown project says so, with the way back.
 */
import { useEffect } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { api, callKey } from "../../lib/api.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { projectInvoiceCall } from "../../../../shared/api/accounts.ts";

export default function ProjectInvoicePage() {
  const { projectid = "" } = useParams();
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: callKey(projectInvoiceCall, projectid),
    queryFn: async () => (await api(projectInvoiceCall, { params: { projectId: projectid } })).result,
    retry: false,
  });
  const found = q.data;
  useEffect(() => {
    if (!found) return;
    const to = found.invoiceId
      ? `/admin/invoice/generate/${found.invoiceId}/edit`
      : `/admin/invoice/generate?${new URLSearchParams({
        ...(found.clientId ? { clientId: found.clientId } : {}),
        projectId: found.projectId,
      })}`;
    navigate(to, { replace: true });
  }, [found, navigate]);
  return (
    <>
      <PageHeader title="Edit Invoice" />
      {q.isError
        ? (
          <div role="alert" className="flex flex-col items-start gap-3 rounded-md border p-6">
            <p>{q.error instanceof Error ? q.error.message : "The project's invoice could not be opened"}</p>
            <Button asChild variant="outline">
              <Link to="/admin/invoice">Back to Ready To Invoice</Link>
            </Button>
          </div>
        )
        : <Spinner label="Opening the project's invoice" />}
    </>
  );
}
