import type { DocumentedPath } from "@/lib/api/openapi/build-openapi";

import * as contact from "./contacts/[id]/route";
import * as contacts from "./contacts/route";
import * as events from "./events/route";
import * as listMembers from "./lists/[id]/members/route";
import * as lists from "./lists/route";
import * as activityReport from "./reports/activity/route";
import * as campaignReport from "./reports/campaigns/route";
import * as summaryReport from "./reports/summary/route";
import * as subscribe from "./subscribe/route";
import * as suppression from "./suppressions/[id]/route";
import * as suppressions from "./suppressions/route";
import * as topics from "./topics/route";

/** Every /v1 path with the module that serves it, in the document's order. A test keeps it equal to the route files. */
export const V1_ROUTES: DocumentedPath[] = [
  { path: "/v1/subscribe", module: subscribe },
  { path: "/v1/contacts", module: contacts },
  { path: "/v1/contacts/{id}", module: contact },
  { path: "/v1/events", module: events },
  { path: "/v1/topics", module: topics },
  { path: "/v1/lists", module: lists },
  { path: "/v1/lists/{id}/members", module: listMembers },
  { path: "/v1/suppressions", module: suppressions },
  { path: "/v1/suppressions/{id}", module: suppression },
  { path: "/v1/reports/summary", module: summaryReport },
  { path: "/v1/reports/campaigns", module: campaignReport },
  { path: "/v1/reports/activity", module: activityReport },
];
