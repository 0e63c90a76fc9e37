import "server-only";

import { stringify } from "csv-stringify/sync";

import type { WorkspaceActor } from "@/lib/actor";
import { DAY_MS } from "@/lib/billing/plan-defaults";
import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import { env } from "@/lib/env";
import { notFound } from "@/lib/errors";

import { getImportRowOrThrow } from "./get-import";

const BATCH = 10_000;

/**
 * The rows an import refused, as CSV in file order: the row number, the reason, why in words, and what the row held.
 * Kept RETENTION_IMPORTS_DAYS after the import finished (pruneImports), then `import_report_expired`.
 */
export async function* refusedRowsCsv(ctx: Ctx, actor: WorkspaceActor, importId: string): AsyncGenerator<string> {
  const imp = await getImportRowOrThrow(ctx, actor, importId);
  const keptUntil = imp.finishedAt ? imp.finishedAt.getTime() + env().RETENTION_IMPORTS_DAYS * DAY_MS : Infinity;
  if (ctx.clock.now().getTime() >= keptUntil) {
    throw notFound(
      "import_report_expired",
      `An import's refused rows are kept ${env().RETENTION_IMPORTS_DAYS} days after it finished; its counts stay.`,
    );
  }
  const sql = rawClient(ctx.db);
  yield stringify([["row", "reason", "detail", "email", "first_name", "last_name", "attributes"]]);
  let after = 0;
  for (;;) {
    const rows = await sql<
      {
        row_number: number;
        refusal: string;
        detail: string | null;
        email: string;
        first_name: string | null;
        last_name: string | null;
        attributes: string;
      }[]
    >`
      select row_number, refusal, detail, email, first_name, last_name, attributes::text as attributes
      from import_rows
      where import_id = ${imp.id} and row_number > ${after} and refusal is not null
      order by row_number limit ${BATCH}`;
    if (rows.length === 0) return;
    yield stringify(
      rows.map((r) => [
        r.row_number,
        r.refusal,
        r.detail ?? "",
        r.email,
        r.first_name ?? "",
        r.last_name ?? "",
        r.attributes === "{}" ? "" : r.attributes,
      ]),
      { escape_formulas: true },
    );
    after = rows.at(-1)!.row_number;
  }
}
