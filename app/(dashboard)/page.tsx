import { redirect } from "next/navigation";

import { UserMenu } from "@/components/dashboard/user-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { requireUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import { listUserWorkspaces } from "@/lib/workspaces/list-user-workspaces";

export default async function HomePage() {
  const user = await requireUser();
  const [first] = await listUserWorkspaces(defaultCtx(), user.id);
  if (first) redirect(`/w/${first.id}`);
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-6 p-6">
      <EmptyState title="You are not a member of any workspace yet">
        Ask a workspace owner to invite you; the workspace appears here once they have.
      </EmptyState>
      <UserMenu email={user.email} />
    </main>
  );
}
