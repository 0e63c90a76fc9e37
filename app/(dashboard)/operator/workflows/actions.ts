"use server";

import { z } from "zod";

import { operatorAction } from "@/lib/operator/operator-action";
import { retryWorkflowRun } from "@/lib/operator/workflow-runs";

export const retryWorkflowRunAction = operatorAction(z.strictObject({}), (ctx, runId) => retryWorkflowRun(ctx, runId));
