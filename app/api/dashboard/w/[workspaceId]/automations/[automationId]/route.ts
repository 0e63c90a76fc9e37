import { z } from "zod";

import { automationFigures } from "@/lib/automations/automation-figures";
import { dashboardRead } from "@/lib/dashboard/dashboard-route";

/** An automation's figures (entered, at each step, sent, exited by reason), polled by its builder. */
export const GET = dashboardRead(z.strictObject({}), ({ ctx, actor, params }) =>
  automationFigures(ctx, actor, params.automationId ?? ""),
);
