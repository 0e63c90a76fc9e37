/**
 * Who is acting through the API: the key's workspace, the brand it is locked
 * to (if any) and whether it is a test key (writes happen, nothing is mailed
 * and no event is recorded).
 */
export interface Caller {
  workspaceId: string;
  brandId: string | null;
  mode: "live" | "test";
}
