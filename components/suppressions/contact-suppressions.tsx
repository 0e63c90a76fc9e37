import { LiftSuppressionButton } from "@/components/suppressions/suppression-controls";
import { SuppressionEvidenceDetails } from "@/components/suppressions/suppression-evidence";
import { reasonOf } from "@/components/suppressions/suppression-reasons";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import type { ActionState } from "@/lib/dashboard/action-state";
import type { suppressionsOfAddress } from "@/lib/suppressions/suppression-evidence";

type Lift = (workspaceId: string, input: { suppressionId: string; reason: string }) => Promise<ActionState<unknown>>;

/** A contact's suppressions (its address or its domain) with their evidence, and those lifted before, with why and by whom. */
export function ContactSuppressions({
  workspaceId,
  data,
  lift,
}: {
  workspaceId: string;
  data: Awaited<ReturnType<typeof suppressionsOfAddress>>;
  lift: Lift;
}) {
  if (data.current.length === 0 && data.lifted.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Suppression</CardTitle>
        <CardDescription>
          Nothing is sent to a suppressed address, whatever its subscriptions. A complaint stays; a bounce can be lifted
          with a reason.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {data.current.length > 0 && (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Blocks</TableHead>
                <TableHead>Reason</TableHead>
                <TableHead>Since</TableHead>
                <TableHead>Evidence</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.current.map((row) => (
                <TableRow key={row.id}>
                  <TableCell>{row.email ?? `every address at ${row.domain}`}</TableCell>
                  <TableCell>{reasonOf(row.reason).label}</TableCell>
                  <TableCell>
                    <When at={row.createdAt} />
                  </TableCell>
                  <TableCell>
                    <SuppressionEvidenceDetails evidence={row.evidence} />
                  </TableCell>
                  <TableCell className="text-right">
                    {row.reason !== "complaint" && (
                      <LiftSuppressionButton
                        workspaceId={workspaceId}
                        suppression={{ id: row.id, target: row.email ?? `@${row.domain}` }}
                        action={lift}
                      />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {data.lifted.length > 0 && (
          <div className="grid gap-2">
            <h3 className="text-sm font-medium">Lifted before</h3>
            <ul className="grid gap-2 text-sm">
              {data.lifted.map((row) => (
                <li key={row.id} className="rounded-md border p-3">
                  <div>
                    {reasonOf(row.reason).label} suppression lifted <When at={row.liftedAt} /> by {row.liftedByLabel}
                    {row.liftReason && <>: &ldquo;{row.liftReason}&rdquo;</>}
                  </div>
                  <SuppressionEvidenceDetails evidence={row.evidence} />
                </li>
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
