import type { Metadata } from "next";

import { AddVerifiedAddressDialog, RemoveVerifiedAddressButton } from "@/components/sandbox/verified-address-controls";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { listSandboxAddresses } from "@/lib/sandbox/verified-addresses";
import { workspaceClearance } from "@/lib/workspaces/sending-clearance";

import { addVerifiedAddressAction, removeVerifiedAddressAction } from "./actions";

export const metadata: Metadata = { title: "Verified addresses" };

/** a, b and c */
const listed = (items: string[]) =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

const STEP_NAMES = {
  domain: "a ready sending domain with the sender address at it",
  brand: "an approved brand",
  review: "the service's review of the workspace",
};

export default async function VerifiedAddressesPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [addresses, clearance] = await Promise.all([listSandboxAddresses(ctx, actor), workspaceClearance(ctx, actor)]);
  const open = clearance.filter((brand) => brand.open);
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Verified addresses" }]}
        title="Verified addresses"
        description="The addresses a brand in its sandbox can mail: every member's own, and those you add and their owners confirm. Test mails go only to these."
        actions={<AddVerifiedAddressDialog workspaceId={workspaceId} action={addVerifiedAddressAction} />}
      />
      <div className="grid gap-6">
        <Alert variant={open.length > 0 ? "default" : "warning"}>
          <AlertTitle>
            {clearance.length === 0
              ? "No brand yet"
              : open.length === clearance.length
                ? "Out of the sandbox"
                : "In the sandbox"}
          </AlertTitle>
          <AlertDescription>
            <ul className="grid gap-1">
              {clearance.map((brand) => (
                <li key={brand.brandId} data-testid={`clearance-${brand.brandId}`}>
                  <strong>{brand.name}</strong>:{" "}
                  {brand.open
                    ? "mails anyone."
                    : `mails only these addresses until it has ${listed(brand.missing.map((step) => STEP_NAMES[step]))}.`}
                </li>
              ))}
            </ul>
          </AlertDescription>
        </Alert>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Address</TableHead>
              <TableHead>Why it counts</TableHead>
              <TableHead>State</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {addresses.map((address) => (
              <TableRow key={address.email}>
                <TableCell className="font-medium">{address.email}</TableCell>
                <TableCell className="text-muted-foreground">
                  {address.kind === "member" ? "A member's sign-in address" : "Added"}
                </TableCell>
                <TableCell>
                  {address.verifiedAt ? (
                    <Badge variant="success">Verified</Badge>
                  ) : (
                    <Badge variant="secondary">
                      {address.kind === "member" ? "Invited, not accepted yet" : "Waiting for its owner to confirm"}
                    </Badge>
                  )}
                </TableCell>
                <TableCell className="text-right">
                  {address.kind === "added" && (
                    <RemoveVerifiedAddressButton
                      workspaceId={workspaceId}
                      email={address.email}
                      action={removeVerifiedAddressAction}
                    />
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </>
  );
}
