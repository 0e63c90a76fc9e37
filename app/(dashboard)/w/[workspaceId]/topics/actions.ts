"use server";

import { z } from "zod";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { archiveTopic } from "@/lib/topics/archive-topic";
import { createTopic } from "@/lib/topics/create-topic";
import { createTopicFormSchema, editTopicFormSchema } from "@/lib/topics/topic-form-schema";
import { updateTopic } from "@/lib/topics/update-topic";

export const createTopicAction = workspaceAction(
  createTopicFormSchema,
  ({ ctx, actor }, { consentAsserted: _asserted, ...input }) => createTopic(ctx, actor, input),
);

export const updateTopicAction = workspaceAction(
  editTopicFormSchema,
  ({ ctx, actor }, { topicId, consentAsserted: _asserted, ...changes }) => updateTopic(ctx, actor, topicId, changes),
);

export const archiveTopicAction = workspaceAction(
  z.strictObject({ topicId: z.string() }),
  ({ ctx, actor }, { topicId }) => archiveTopic(ctx, actor, topicId),
);
