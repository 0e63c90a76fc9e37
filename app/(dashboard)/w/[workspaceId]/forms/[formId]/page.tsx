import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { DeleteFormButton } from "@/components/signup-forms/delete-form-button";
import { EmbedCodes } from "@/components/signup-forms/embed-codes";
import { SignupFormEditor } from "@/components/signup-forms/signup-form-editor";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { embedCodes } from "@/lib/forms/embed-codes";
import { getSignupFormOrThrow } from "@/lib/forms/get-signup-form";
import { conversionRate, listSignupForms } from "@/lib/forms/list-signup-forms";
import { publicSignupForm } from "@/lib/forms/public-signup-form";
import { signupFormOptions } from "@/lib/forms/signup-form-options";
import { appUrl } from "@/lib/runtime/app-url";

import { createFormKeyAction, deleteSignupFormAction, updateSignupFormAction } from "../actions";

export const metadata: Metadata = { title: "Signup form" };

const percent = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 1 });

export default async function SignupFormPage({ params }: { params: Promise<{ workspaceId: string; formId: string }> }) {
  const { workspaceId, formId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [form, options, [summary]] = await Promise.all([
    findOrNull(getSignupFormOrThrow(ctx, actor, formId)),
    signupFormOptions(ctx, actor),
    listSignupForms(ctx, actor, formId),
  ]);
  if (!form || !summary) notFound();
  const topics = options.topics.filter((topic) => form.topicIds.includes(topic.id));
  const attributeTypes = Object.fromEntries(options.attributes.map((attribute) => [attribute.key, attribute.type]));
  const codes = embedCodes(publicSignupForm(form, topics, attributeTypes, appUrl()), appUrl());
  const figures = [
    {
      label: "Submissions",
      value: String(summary.submissions),
      hint: "Accepted signups; refused bots are not counted.",
    },
    {
      label: "Confirmed",
      value: String(summary.confirmations),
      hint: "Submissions now subscribed to at least one topic.",
    },
    { label: "Conversion", value: percent.format(conversionRate(summary)), hint: "Confirmed per submission." },
  ];
  const { id: _id, workspaceId: _workspace, createdAt: _created, updatedAt: _updated, ...values } = form;
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Signup forms", href: `/w/${workspaceId}/forms` },
          { label: form.name },
        ]}
        title={form.name}
        actions={
          <DeleteFormButton
            workspaceId={workspaceId}
            formId={form.id}
            name={form.name}
            action={deleteSignupFormAction}
          />
        }
      />
      <div className="grid gap-6">
        <div className="grid gap-4 sm:grid-cols-3">
          {figures.map((figure) => (
            <Card key={figure.label} className="gap-2">
              <CardHeader>
                <CardDescription>{figure.label}</CardDescription>
                <CardTitle className="text-2xl tabular-nums" data-testid={`form-${figure.label.toLowerCase()}`}>
                  {figure.value}
                </CardTitle>
              </CardHeader>
              <CardContent className="text-xs text-muted-foreground">{figure.hint}</CardContent>
            </Card>
          ))}
        </div>
        {topics.length < form.topicIds.length && (
          <p className="text-sm text-destructive">
            A topic of this form was archived: the form no longer offers it. Choose its topics again below.
          </p>
        )}
        <EmbedCodes codes={codes} />
        <SignupFormEditor
          workspaceId={workspaceId}
          options={options}
          initial={values}
          save={{ formId: form.id, update: updateSignupFormAction }}
          createKey={createFormKeyAction}
        />
      </div>
    </>
  );
}
