import { contactListQuerySchema } from "@/lib/contacts/contact-list-query";
import { dashboardRead } from "@/lib/dashboard/dashboard-route";
import { readContactPage } from "@/lib/dashboard/read-contact-page";

/** The contacts table's pages as the browser asks for them while a member searches, filters and sorts. */
export const GET = dashboardRead(contactListQuerySchema, ({ ctx, actor, query }) => readContactPage(ctx, actor, query));
