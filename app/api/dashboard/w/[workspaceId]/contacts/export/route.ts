import { contactExportQuerySchema } from "@/lib/contacts/contact-list-query";
import { exportContactsCsv } from "@/lib/contacts/export-contacts";
import { dashboardCsvDownload } from "@/lib/dashboard/dashboard-route";

/** The contacts the table's search and filters select, or those ticked (`ids`), as CSV with their consent evidence. */
export const GET = dashboardCsvDownload(contactExportQuerySchema, async ({ ctx, actor, query }) => ({
  fileName: `contacts-${new Date().toISOString().slice(0, 10)}.csv`,
  chunks: (async function* () {
    for await (const chunk of exportContactsCsv(ctx, actor, {
      search: query.q,
      status: query.status,
      topicId: query.topic,
      listId: query.list,
      contactIds: query.ids,
    }))
      yield chunk.csv;
  })(),
}));
