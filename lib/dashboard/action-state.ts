/** What a dashboard server action answers: the result, or why nothing changed, field by field where it can. */
export type ActionState<R = undefined> =
  { ok: true; result: R; message?: string } | { ok: false; message: string; fieldErrors: Record<string, string> };
