/**
 * What each screen of a later release will do, in one line, shown under its title by the
 * placeholder (from the spec's screen lists). Kept here, in the placeholder's lazily loaded
 * module, so the sign-in page does not pay for it.
 */
export const PLACEHOLDER_DESCRIPTIONS: Record<string, string> = {
  "/admin/api": "This provider's survey offers, each added as a project in one step.",
  "/admin/api/logit": "This provider's survey offers, each added as a project in one step.",
  "/admin/api/toluna":
    "This provider's survey offers with their quotas and questions, each added as a project in one step.",
  "/admin/api/circle": "This provider's survey offers, each added as a project in one step.",
  "/admin/api/mrkt": "This provider's survey offers, each added as a project in one step.",
  "/admin/report": "Client, supplier, prescreen and complete reports, downloaded as CSV.",
  "/admin/reconcile": "Approve or reject a project's respondent identifiers, then send it to invoicing.",
  "/admin/reconcile/add": "Start reconciling a project from a file of approved or rejected identifiers.",
  "/admin/reconcile/:reconcileid/edit":
    "Correct a reconciliation: the identifiers approved or rejected for a project.",
  "/admin/invoice": "Projects ready to invoice, with their completes, CPI and PO numbers.",
  "/admin/invoice/archieved": "Projects archived after invoicing.",
  "/admin/invoice/list": "Invoices sent to clients, their due and received dates, and whether they are paid.",
  "/admin/invoice/supplier": "What each supplier has earned: accepted completes and total cost.",
  "/admin/invoice/supplier/list":
    "Purchase orders to suppliers, with their reference numbers and PDF downloads.",
  "/admin/invoice/supplier/:supplierid/list":
    "A supplier's reconciled projects with its CPI, accepted completes and cost.",
  "/admin/invoice/generate": "An invoice for a client from its projects' completes and CPI, saved as a PDF.",
  "/admin/invoice/generate/manual": "An invoice for work entered by hand rather than taken from a project.",
  "/admin/invoice/generate/:id/edit": "Change an invoice's lines, dates and net terms.",
  "/admin/invoice/add": "Add an invoice for a project.",
  "/admin/invoice/:projectid/edit": "Change a project's invoice.",
  "/admin/invoice/view/:invoiceid": "The invoice as the client receives it, ready to download as a PDF.",
  "/admin/invoice/status/:invoiceid/edit":
    "Record an invoice's payment: reference number, received date and status.",
};
