import { contactCountQuerySchema } from "@/lib/contacts/contact-list-query";
import { dashboardRead } from "@/lib/dashboard/dashboard-route";
import { readContactCount } from "@/lib/dashboard/read-contact-page";

/** The contacts table's total for a search and filters, read apart from its rows so the rows never wait for it. */
export const GET = dashboardRead(contactCountQuerySchema, ({ ctx, actor, query }) =>
  readContactCount(ctx, actor, query),
);
