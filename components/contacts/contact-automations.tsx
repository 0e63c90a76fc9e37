import Link from "next/link";

import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import type { ContactAutomationPosition } from "@/lib/automations/contact-automations";

const STEP_WORDS: Record<string, string> = {
  send: "about to be mailed",
  wait: "waiting",
  wait_until: "waiting for a local time",
  wait_for_event: "waiting for an event",
  list_add: "being added to a list",
  list_remove: "being removed from a list",
  set_attribute: "having a field set",
  branch: "at a branch",
  exit: "leaving",
};

function where(position: ContactAutomationPosition): string {
  if (position.status === "completed") return "Walked every step";
  if (position.status === "exited") return `Left: ${(position.exitReason ?? "").replaceAll("_", " ")}`;
  const doing = position.stepType ? STEP_WORDS[position.stepType] : null;
  return `Step ${position.step}${doing ? `, ${doing}` : ""}`;
}

/** The contact's place in each automation they entered (lib/automations/contact-automations.ts). */
export function ContactAutomations({
  workspaceId,
  positions,
}: {
  workspaceId: string;
  positions: ContactAutomationPosition[];
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Automations</CardTitle>
        <CardDescription>Where this person is in each automation they entered.</CardDescription>
      </CardHeader>
      <CardContent>
        {positions.length === 0 ? (
          <p className="text-sm text-muted-foreground">This contact has not entered any automation.</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Automation</TableHead>
                <TableHead>Version</TableHead>
                <TableHead>Where</TableHead>
                <TableHead>Since</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {positions.map((position) => (
                <TableRow key={position.entryId}>
                  <TableCell>
                    <Link
                      className="font-medium text-primary hover:underline"
                      href={`/w/${workspaceId}/automations/${position.automationId}`}
                    >
                      {position.automationName}
                    </Link>
                  </TableCell>
                  <TableCell>{position.version}</TableCell>
                  <TableCell>
                    {position.status === "active" ? <Badge variant="secondary">Active</Badge> : null} {where(position)}
                  </TableCell>
                  <TableCell>
                    <When at={position.since} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
