import { systemActor } from "@/lib/actor";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { createList } from "@/lib/lists/create-list";
import { archiveTopic } from "@/lib/topics/archive-topic";
import { createTopic } from "@/lib/topics/create-topic";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** What contacts are organised by: topics they subscribe to, lists, and the attributes they carry. */
export const audienceCommands: Record<string, AdminCommand> = {
  "topic:create": {
    summary: "--workspace ID --brand ID --name N [--description D] [--no-confirmation]",
    options: {
      workspace: string,
      brand: string,
      name: string,
      description: string,
      "no-confirmation": { type: "boolean" },
    },
    required: ["workspace", "brand", "name"],
    run: async (ctx, v) => {
      const { topicId } = await createTopic(ctx, systemActor("admin-cli", str(v, "workspace")), {
        brandId: str(v, "brand"),
        name: str(v, "name"),
        description: opt(v, "description"),
        requiresConfirmation: !v["no-confirmation"],
      });
      return { topic_id: topicId };
    },
  },
  "topic:archive": {
    summary: "--topic ID",
    options: { topic: string },
    required: ["topic"],
    run: async (ctx, v) => {
      const { topicId, archivedAt } = await archiveTopic(ctx, systemActor("admin-cli"), str(v, "topic"));
      return { topic_id: topicId, archived_at: archivedAt.toISOString() };
    },
  },
  "list:create": {
    summary: "--workspace ID --brand ID --name N [--description D]",
    options: { workspace: string, brand: string, name: string, description: string },
    required: ["workspace", "brand", "name"],
    run: async (ctx, v) => {
      const { listId } = await createList(ctx, systemActor("admin-cli", str(v, "workspace")), {
        brandId: str(v, "brand"),
        name: str(v, "name"),
        description: opt(v, "description"),
      });
      return { list_id: listId };
    },
  },
  "attribute:define": {
    summary: "--workspace ID --key K --type string|number|boolean|date",
    options: { workspace: string, key: string, type: string },
    required: ["workspace", "key", "type"],
    run: async (ctx, v) => {
      const result = await defineAttribute(ctx, systemActor("admin-cli", str(v, "workspace")), {
        key: str(v, "key"),
        type: str(v, "type") as "string",
      });
      return { key: result.key, type: result.type };
    },
  },
};
