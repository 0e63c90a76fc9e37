import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { basename } from "node:path";

import { systemActor } from "@/lib/actor";
import { CONTACT_STATUSES, type ContactStatus } from "@/lib/contacts/contact-status";
import { eraseContact } from "@/lib/contacts/erase-contacts";
import { exportContactData } from "@/lib/contacts/export-contact-data";
import { exportContactsCsv } from "@/lib/contacts/export-contacts";
import type { ImportCounts } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import { applyImportChunks } from "@/lib/imports/apply-import-chunk";
import { checkImport } from "@/lib/imports/check-import";
import { autoMap } from "@/lib/imports/column-matching";
import { getImportRowOrThrow } from "@/lib/imports/get-import";
import { startImport } from "@/lib/imports/import-actions";
import { importFields } from "@/lib/imports/import-fields";
import { checkImportSchema } from "@/lib/imports/import-schemas";
import { receiveImport } from "@/lib/imports/receive-import";

import { string, type AdminCommand } from "./admin-command";

const many = { type: "string", multiple: true } as const;

/** The counts as scripts read them (snake_case, like every command's JSON). */
function countsJson(counts: ImportCounts | null) {
  if (!counts) return null;
  return {
    rows: counts.rows,
    created: counts.created,
    updated: counts.updated,
    updated_fields: counts.updatedFields,
    unchanged: counts.unchanged,
    refused: counts.refused,
    subscribed: counts.subscribed,
  };
}

export const importCommands: Record<string, AdminCommand> = {
  "import:run": {
    summary:
      "--workspace ID --file F [--map COLUMN=FIELD]... [--topic ID]... [--list ID [--start-automations]] [--policy keep|overwrite] [--dry-run]",
    options: {
      workspace: string,
      file: string,
      map: many,
      topic: many,
      list: string,
      policy: string,
      "dry-run": { type: "boolean" },
      "start-automations": { type: "boolean" },
    },
    required: ["workspace", "file"],
    run: async (ctx, v) => {
      const actor = systemActor("admin-cli", v.workspace as string);
      const file = v.file as string;
      const { importId } = await receiveImport(ctx, actor, { fileName: basename(file), body: createReadStream(file) });
      const imp = await getImportRowOrThrow(ctx, actor, importId);
      // Headers that name a field map themselves; --map names the rest (or overrides), by header.
      const mapping = autoMap(imp.header, await importFields(ctx, actor));
      for (const pair of (v.map as string[] | undefined) ?? []) {
        const [column, field = ""] = pair.split("=");
        const index = imp.header.indexOf(column ?? "");
        if (index < 0)
          throw validationFailed("map", `No column "${column}" in the file's header (${imp.header.join(", ")}).`);
        mapping[index] = field === "ignore" ? "" : field;
      }
      const topicIds = (v.topic as string[] | undefined) ?? [];
      // The operator running this asserts the consent the file's owner holds, as the dashboard's checkbox does.
      const input = checkImportSchema.parse({
        mapping,
        policy: v.policy ?? "keep",
        topicIds,
        listId: v.list ?? null,
        consentAsserted: topicIds.length > 0,
        // The people added to the list enter its list_added automations only when asked for.
        startAutomations: v["start-automations"] === true,
      });
      const checked = await checkImport(ctx, actor, importId, input);
      if (v["dry-run"])
        return { import_id: importId, status: "checked", mapping, checked: countsJson(checked), applied: null };
      await startImport(ctx, actor, importId);
      // Applied here, as the workflow does; a worker that picks up the same run meanwhile shares the work safely.
      while (!(await applyImportChunks(ctx, importId)).done);
      const done = await getImportRowOrThrow(ctx, actor, importId);
      return {
        import_id: importId,
        status: done.status,
        mapping,
        checked: countsJson(checked),
        applied: countsJson(done.applied),
      };
    },
  },
  "contact:export-data": {
    summary:
      "--workspace ID --contact ID   (everything held about one contact, as JSON: for the person's access request)",
    options: { workspace: string, contact: string },
    required: ["workspace", "contact"],
    document: true,
    run: (ctx, v) => exportContactData(ctx, systemActor("admin-cli", v.workspace as string), v.contact as string),
  },
  "contact:erase": {
    summary:
      "--workspace ID --contact ID   (erases the contact and every personal datum about them, at the person's request; cannot be undone)",
    options: { workspace: string, contact: string },
    required: ["workspace", "contact"],
    run: async (ctx, v) => {
      const { cancelledSends } = await eraseContact(
        ctx,
        systemActor("admin-cli", v.workspace as string),
        v.contact as string,
      );
      return { contact_id: v.contact, erased: true, cancelled_sends: cancelledSends };
    },
  },
  "contacts:export": {
    summary: "--workspace ID --out FILE [--status S] [--topic ID] [--list ID]",
    options: { workspace: string, out: string, status: string, topic: string, list: string },
    required: ["workspace", "out"],
    run: async (ctx, v) => {
      const actor = systemActor("admin-cli", v.workspace as string);
      const out = createWriteStream(v.out as string);
      const status = v.status as ContactStatus | undefined;
      if (status && !CONTACT_STATUSES.includes(status))
        throw validationFailed("status", `status: one of ${CONTACT_STATUSES.join(", ")}.`);
      let rows = 0;
      for await (const chunk of exportContactsCsv(ctx, actor, {
        status,
        topicId: v.topic as string | undefined,
        listId: v.list as string | undefined,
      })) {
        rows += chunk.rows;
        if (!out.write(chunk.csv)) await once(out, "drain");
      }
      out.end();
      await once(out, "finish");
      return { file: v.out, rows };
    },
  },
};
