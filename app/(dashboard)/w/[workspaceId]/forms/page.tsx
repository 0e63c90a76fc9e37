import { ClipboardList, Plus } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { conversionRate, listSignupForms } from "@/lib/forms/list-signup-forms";
import { signupFormOptions } from "@/lib/forms/signup-form-options";

export const metadata: Metadata = { title: "Signup forms" };

const percent = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 1 });

export default async function SignupFormsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [forms, options] = await Promise.all([listSignupForms(ctx, actor), signupFormOptions(ctx, actor)]);
  const topicName = new Map(options.topics.map((topic) => [topic.id, topic.name]));
  const create = (
    <Button asChild>
      <Link href={`/w/${workspaceId}/forms/new`}>
        <Plus />
        New form
      </Link>
    </Button>
  );
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Signup forms" }]}
        title="Signup forms"
        description="Forms for your own website that subscribe people to your topics, with their consent recorded."
        actions={forms.length > 0 ? create : undefined}
      />
      {forms.length === 0 ? (
        <EmptyState
          icon={<ClipboardList />}
          title="Create your first signup form"
          action={options.topics.length > 0 ? create : undefined}
        >
          {options.topics.length > 0 ? (
            "Design it here, then paste a script tag or plain HTML on your site, or link to its hosted page. Double opt-in topics mail a confirmation link before anyone is subscribed."
          ) : (
            <>
              A form subscribes people to topics: <Link href={`/w/${workspaceId}/topics`}>create a topic</Link> first.
            </>
          )}
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Form</TableHead>
              <TableHead>Topics</TableHead>
              <TableHead className="text-right">Submissions</TableHead>
              <TableHead className="text-right">Confirmed</TableHead>
              <TableHead className="text-right">Conversion</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {forms.map((form) => (
              <TableRow key={form.id}>
                <TableCell>
                  <Link
                    className="font-medium text-primary hover:underline"
                    href={`/w/${workspaceId}/forms/${form.id}`}
                  >
                    {form.name}
                  </Link>
                </TableCell>
                <TableCell className="max-w-64 truncate">
                  {form.topicIds.map((id) => topicName.get(id) ?? "Archived topic").join(", ")}
                </TableCell>
                <TableCell className="text-right tabular-nums">{form.submissions}</TableCell>
                <TableCell className="text-right tabular-nums">{form.confirmations}</TableCell>
                <TableCell className="text-right tabular-nums">{percent.format(conversionRate(form))}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}
