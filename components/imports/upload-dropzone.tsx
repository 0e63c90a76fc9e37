"use client";

import { FileUp } from "lucide-react";
import { useRouter } from "next/navigation";
import { useRef, useState, type DragEvent } from "react";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { dashboardFiles } from "@/lib/dashboard/dashboard-reads";

const MAX_BYTES = 1024 * 1024 * 1024;

/**
 * Drop a CSV file here or pick one: it is sent as it is read from disk (up to
 * 1 GiB) with a progress bar, and the mapping opens once it has arrived.
 * XMLHttpRequest, not fetch: only it reports upload progress.
 */
export function UploadDropzone({ workspaceId }: { workspaceId: string }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [sent, setSent] = useState<number | null>(null);
  const [error, setError] = useState<string>();

  function upload(file: File) {
    setError(undefined);
    if (file.size > MAX_BYTES) return setError("A file may be at most 1 GiB.");
    if (file.size === 0) return setError("This file is empty.");
    const request = new XMLHttpRequest();
    request.open("POST", dashboardFiles.importUpload(workspaceId, file.name));
    request.setRequestHeader("content-type", "text/csv");
    request.upload.onprogress = (event) => setSent(event.lengthComputable ? event.loaded / event.total : null);
    request.onerror = () => (
      setSent(null),
      setError("The upload did not get through. Check your connection and try again.")
    );
    request.onload = () => {
      const body = JSON.parse(request.responseText || "null") as {
        importId?: string;
        error?: { message?: string };
      } | null;
      if (request.status === 201 && body?.importId)
        return router.push(`/w/${workspaceId}/contacts/imports/${body.importId}`);
      setSent(null);
      setError(body?.error?.message ?? `The server answered ${request.status}.`);
    };
    setSent(0);
    request.send(file);
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) upload(file);
  };

  return (
    <div className="grid gap-2">
      <div
        onDragOver={(event) => (event.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          "flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-8 text-center transition-colors",
          over ? "border-primary bg-primary/5" : "border-border",
        )}
      >
        <FileUp className="size-8 text-muted-foreground" aria-hidden />
        <div>
          <p className="font-medium">Drop a CSV file here</p>
          <p className="text-sm text-muted-foreground">
            One contact per line, the first line naming the columns. Up to 1 GiB; commas, semicolons or tabs.
          </p>
        </div>
        <input
          ref={input}
          type="file"
          accept=".csv,.tsv,.txt,text/csv"
          className="sr-only"
          aria-label="CSV file"
          onChange={(event) => event.target.files?.[0] && upload(event.target.files[0])}
        />
        <Button type="button" variant="outline" disabled={sent !== null} onClick={() => input.current?.click()}>
          Choose a file
        </Button>
        {sent !== null && (
          <div
            className="w-full max-w-sm"
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(sent * 100)}
          >
            <div className="h-2 overflow-hidden rounded-full bg-muted">
              <div className="h-full bg-primary transition-[width]" style={{ width: `${Math.round(sent * 100)}%` }} />
            </div>
            <p className="mt-1 text-xs text-muted-foreground">
              {sent < 1 ? `Uploading… ${Math.round(sent * 100)} %` : "Reading the file…"}
            </p>
          </div>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
