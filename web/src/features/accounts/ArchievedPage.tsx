/** Archieved (/admin/invoice/archieved): archived projects on the Accounts tab strip. */
import { AccountProjects } from "./AccountProjectsPage.tsx";

export default function ArchievedPage() {
  return <AccountProjects archived />;
}
