import { Download } from "lucide-react";
import Link from "next/link";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { NOT_SENT_PER_PAGE, type NotSentPage } from "@/lib/campaigns/list-not-sent";
import { notSentReason } from "@/lib/campaigns/not-sent-reasons";

const people = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "person" : "people"}`;

/**
 * Who a campaign was not sent to: the totals per reason in words, the people a rule left out (with
 * what to do) apart from real failures, then everyone by address, a page at a time, and as CSV.
 */
export function NotSentCard({
  totals,
  list,
  pageHref,
  csvHref,
}: {
  totals: { reason: string; count: number }[];
  list: NotSentPage;
  pageHref: (page: number) => string;
  csvHref: string;
}) {
  const reasons = totals.map((row) => ({ ...row, ...notSentReason(row.reason) }));
  const byRule = reasons.filter((row) => row.byRule);
  const failed = reasons.filter((row) => !row.byRule);
  const first = (list.page - 1) * NOT_SENT_PER_PAGE + 1;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>Not sent</CardTitle>
          <CardDescription>
            {people(list.total)} did not get this campaign. Nothing was charged for them.
          </CardDescription>
        </div>
        <Button asChild variant="outline" size="sm">
          <a href={csvHref} download>
            <Download />
            Download CSV
          </a>
        </Button>
      </CardHeader>
      <CardContent className="grid gap-5">
        {byRule.length > 0 && (
          <section className="grid gap-2" aria-labelledby="left-out-by-rule">
            <h3 id="left-out-by-rule" className="text-sm font-medium">
              Left out by a rule
            </h3>
            <ul className="grid gap-3 text-sm" aria-label="Reasons left out">
              {byRule.map((row) => (
                <li key={row.reason} className="grid gap-0.5">
                  <span>
                    <span className="font-medium tabular-nums">{people(row.count)}</span>: {row.label}
                  </span>
                  {row.fix && <span className="text-muted-foreground">{row.fix}</span>}
                </li>
              ))}
            </ul>
          </section>
        )}
        {failed.length > 0 && (
          <section className="grid gap-2" aria-labelledby="failed-to-send">
            <h3 id="failed-to-send" className="text-sm font-medium text-destructive">
              Failed
            </h3>
            <ul className="grid gap-2 text-sm" aria-label="Reasons failed">
              {failed.map((row) => (
                <li key={row.reason}>
                  <span className="font-medium tabular-nums">{people(row.count)}</span>: {row.label}
                </li>
              ))}
            </ul>
          </section>
        )}
        <div className="grid gap-2">
          <Table aria-label="Recipients not sent to" className="table-fixed">
            <TableHeader>
              <TableRow>
                <TableHead className="w-1/2">Address</TableHead>
                <TableHead>Why</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.rows.map((row) => (
                <TableRow key={row.email}>
                  <TableCell className="break-all whitespace-normal">{row.email}</TableCell>
                  <TableCell className="whitespace-normal text-muted-foreground">
                    {notSentReason(row.reason).label}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {list.pages > 1 && (
            <nav
              className="flex flex-wrap items-center justify-between gap-2 text-sm"
              aria-label="Pages of recipients not sent to"
            >
              <span className="text-muted-foreground">
                {first.toLocaleString("en")}–{(first + list.rows.length - 1).toLocaleString("en")} of{" "}
                {list.total.toLocaleString("en")}
              </span>
              <span className="flex gap-2">
                {list.page > 1 ? (
                  <Button asChild variant="outline" size="sm">
                    <Link href={pageHref(list.page - 1)} scroll={false}>
                      Previous
                    </Link>
                  </Button>
                ) : (
                  <Button variant="outline" size="sm" disabled>
                    Previous
                  </Button>
                )}
                {list.page < list.pages ? (
                  <Button asChild variant="outline" size="sm">
                    <Link href={pageHref(list.page + 1)} scroll={false}>
                      Next
                    </Link>
                  </Button>
                ) : (
                  <Button variant="outline" size="sm" disabled>
                    Next
                  </Button>
                )}
              </span>
            </nav>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
