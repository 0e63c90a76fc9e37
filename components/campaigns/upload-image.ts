/** Sends an image file to the workspace's image store; its public address, or an Error with the server's message. */
export async function uploadImage(workspaceId: string, file: File): Promise<{ url: string }> {
  const response = await fetch(`/api/dashboard/w/${encodeURIComponent(workspaceId)}/images`, { method: "POST", body: file, credentials: "same-origin" });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new Error((body as { error?: { message?: string } } | null)?.error?.message ?? `The upload failed (${response.status}).`);
  return body as { url: string };
}
