import { Badge } from "@/components/ui/badge";

import type { JsonSchema, Operation } from "./openapi-types";
import { Prose } from "./prose";
import { SchemaFields, typeLabel } from "./schema-fields";

const METHOD_COLOURS: Record<string, string> = {
  get: "bg-sky-600/15 text-sky-700 dark:text-sky-300",
  post: "bg-emerald-600/15 text-emerald-700 dark:text-emerald-300",
  delete: "bg-rose-600/15 text-rose-700 dark:text-rose-300",
};

function curlExample(method: string, path: string, operation: Operation): string {
  const query = (operation.parameters ?? [])
    .filter((p) => p.in === "query" && p.example)
    .map((p) => `${p.name}=${encodeURIComponent(p.example!)}`);
  const url = `$BASE_URL${path}${query.length ? `?${query.join("&")}` : ""}`;
  const key = operation["x-key-kinds"]?.includes("publishable") ? "$PUBLISHABLE_OR_SECRET_KEY" : "$SECRET_KEY";
  const lines = [`curl -X ${method.toUpperCase()} "${url}"`, `  -H "Authorization: Bearer ${key}"`];
  const example = operation.requestBody?.content["application/json"].example;
  if (example !== undefined) lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(example)}'`);
  return lines.join(" \\\n");
}

export function MethodBadge({ method }: { method: string }) {
  return <Badge className={`border-transparent font-mono uppercase ${METHOD_COLOURS[method] ?? ""}`}>{method}</Badge>;
}

/** One operation: what it does, what it takes, what it answers and how it fails. */
export function OperationSection({
  method,
  path,
  operation,
  components,
}: {
  method: string;
  path: string;
  operation: Operation;
  components: Record<string, JsonSchema>;
}) {
  const parameters = operation.parameters ?? [];
  const body = operation.requestBody?.content["application/json"];
  const statuses = Object.entries(operation.responses);
  const successes = statuses.filter(([status]) => status.startsWith("2") || status === "304");
  const failures = statuses.filter(([status]) => !status.startsWith("2") && status !== "304");
  return (
    <section
      id={operation.operationId}
      aria-labelledby={`${operation.operationId}-title`}
      className="scroll-mt-6 border-t pt-8"
    >
      <div className="flex flex-wrap items-center gap-2">
        <MethodBadge method={method} />
        <code className="font-mono text-sm">{path}</code>
      </div>
      <h3 id={`${operation.operationId}-title`} className="mt-2 text-lg font-semibold">
        {operation.summary}
      </h3>
      {operation.description?.split("\n\n").map((paragraph) => (
        <p key={paragraph} className="mt-2 text-sm text-muted-foreground">
          <Prose text={paragraph} />
        </p>
      ))}
      <pre className="mt-4 overflow-x-auto rounded-lg bg-muted p-3 font-mono text-xs">
        {curlExample(method, path, operation)}
      </pre>

      {parameters.length > 0 && (
        <>
          <h4 className="mt-6 text-sm font-semibold">Parameters</h4>
          <dl className="mt-2 divide-y rounded-lg border">
            {parameters.map((parameter) => (
              <div key={`${parameter.in}-${parameter.name}`} className="px-4 py-2.5">
                <dt className="flex flex-wrap items-baseline gap-x-2">
                  <code className="font-mono text-sm font-medium">{parameter.name}</code>
                  <span className="font-mono text-xs text-muted-foreground">
                    {parameter.in} · {typeLabel(parameter.schema, components)}
                  </span>
                  {parameter.required && (
                    <span className="text-xs font-medium text-amber-700 dark:text-amber-400">required</span>
                  )}
                </dt>
                {(parameter.description ?? parameter.schema.description) && (
                  <dd className="mt-0.5 text-sm text-muted-foreground">
                    <Prose text={parameter.description ?? parameter.schema.description!} />
                  </dd>
                )}
              </div>
            ))}
          </dl>
        </>
      )}

      {body && (
        <>
          <h4 className="mt-6 text-sm font-semibold">Body</h4>
          <div className="mt-2">
            <SchemaFields schema={body.schema} components={components} />
          </div>
        </>
      )}

      {successes.map(([status, response]) => (
        <div key={status}>
          <h4 className="mt-6 text-sm font-semibold">
            {status} · <span className="font-normal text-muted-foreground">{response.description}</span>
          </h4>
          {response.content && (
            <div className="mt-2">
              <SchemaFields schema={response.content["application/json"].schema} components={components} answer />
            </div>
          )}
        </div>
      ))}

      {failures.length > 0 && (
        <>
          <h4 className="mt-6 text-sm font-semibold">Errors</h4>
          <dl className="mt-2 divide-y rounded-lg border text-sm">
            {failures.flatMap(([status, response]) =>
              response.description.split("\n\n").map((line) => {
                const [, code, when] = /^`([^`]+)`: (.*)$/s.exec(line) ?? [null, "", line];
                return (
                  <div
                    key={`${status}-${code}`}
                    className="grid grid-cols-[3.5rem_1fr] gap-x-3 px-4 py-2 sm:grid-cols-[3.5rem_16rem_1fr]"
                  >
                    <dt className="font-mono text-muted-foreground">{status}</dt>
                    <dd className="font-mono">{code}</dd>
                    <dd className="col-span-2 text-muted-foreground sm:col-span-1">
                      <Prose text={when!} />
                    </dd>
                  </div>
                );
              }),
            )}
          </dl>
        </>
      )}
    </section>
  );
}
