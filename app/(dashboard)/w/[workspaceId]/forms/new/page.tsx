import { Megaphone } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { SignupFormEditor } from "@/components/signup-forms/signup-form-editor";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { keyReachesBrand } from "@/lib/api-keys/key-brand-scope";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { signupFormOptions } from "@/lib/forms/signup-form-options";
import { SIGNUP_FORM_DEFAULTS } from "@/lib/forms/signup-form-schemas";

import { createFormKeyAction, createSignupFormAction } from "../actions";

export const metadata: Metadata = { title: "New signup form" };

export default async function NewSignupFormPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const options = await signupFormOptions(ctx, actor);
  const crumbs = [
    { label: "Overview", href: `/w/${workspaceId}` },
    { label: "Signup forms", href: `/w/${workspaceId}/forms` },
    { label: "New form" },
  ];
  const topic = options.topics[0];
  const key = topic && options.keys.find((candidate) => keyReachesBrand(candidate, topic.brandId));
  return (
    <>
      <PageHeader crumbs={crumbs} title="New signup form" />
      {!topic ? (
        <EmptyState
          icon={<Megaphone />}
          title="Create a topic first"
          action={
            <Button asChild>
              <Link href={`/w/${workspaceId}/topics`}>Go to topics</Link>
            </Button>
          }
        >
          A signup form subscribes people to topics, and a topic belongs to a brand.
        </EmptyState>
      ) : (
        <SignupFormEditor
          workspaceId={workspaceId}
          options={options}
          initial={{
            name: "",
            brandId: topic.brandId,
            topicIds: [topic.id],
            apiKeyId: key?.id ?? "",
            ...SIGNUP_FORM_DEFAULTS,
          }}
          save={{ create: createSignupFormAction }}
          createKey={createFormKeyAction}
        />
      )}
    </>
  );
}
