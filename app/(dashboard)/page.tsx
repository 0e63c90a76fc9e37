import { redirect } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import { listUserWorkspaces } from "@/lib/workspaces/list-user-workspaces";

export default async function HomePage() {
  const user = await requireUser();
  const [first] = await listUserWorkspaces(defaultCtx(), user.id);
  if (first) redirect(`/w/${first.id}`);
  return (
    <>
      <h1>Welcome</h1>
      <p className="muted">You are not a member of any workspace yet. Ask a workspace owner to add you.</p>
    </>
  );
}
