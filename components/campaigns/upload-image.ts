import { answerOf } from "@/lib/dashboard/dashboard-reads";

/** Sends an image file to the workspace's image store; its public address, or an Error with the server's message. */
export async function uploadImage(workspaceId: string, file: File): Promise<{ url: string }> {
  return answerOf(
    await fetch(`/api/dashboard/w/${encodeURIComponent(workspaceId)}/images`, {
      method: "POST",
      body: file,
      credentials: "same-origin",
    }),
  );
}
